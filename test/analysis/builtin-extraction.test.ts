import { describe, expect, test } from 'bun:test'
import { analyzePaper } from '../../src/pipeline/analysis/builtin'
import { extractClaims } from '../../src/pipeline/analysis/builtin/claims'
import { findMentions, tokenize } from '../../src/lexicon/matcher'
import { splitSentences } from '../../src/pipeline/analysis/builtin/sentences'
import { writeStory } from '../../src/pipeline/analysis/builtin/story'
import { checkSupport } from '../../src/pipeline/analysis/support'
import { paperInput, RAPAMYCIN_MICE } from './paper-input'

const setting = { organism: 'Mus musculus', design: 'in vivo', evidenceLevel: 'animal', preprint: false, review: false }
const claimsOf = (text: string) => extractClaims(splitSentences(text), setting)
const keys = (text: string) => findMentions(text).map((m) => `${m.entry.type}:${m.entry.key}`)

describe('lexicon matching', () => {
  test('tokens are the runs of letters, digits and "+" in any script, as the regular expression defines them', () => {
    // The tokeniser is a loop over character codes for speed; it must cut text exactly as this expression does.
    const TOKEN = /[\p{L}\p{N}+]+/gu
    const byExpression = (t: string) =>
      [...t.matchAll(TOKEN)].map((m) => ({
        norm: m[0].toLowerCase(),
        raw: m[0],
        start: m.index!,
        end: m.index! + m[0].length,
      }))
    const texts = [
      '',
      'x',
      'Rapamycin extends lifespan in C. elegans (daf-16) by 5+6%.',
      'İstanbul ß Straße ÉCOLE',
      'β-amyloid Aβ42 and α-synuclein',
      'a\uD800b \uD83D\uDE00 x\uDC00 end',
      '\uD835\uDC00bc 𝐀𝐁 數據 ١٢٣ no-break\u00A0space',
      '  leading and trailing  ',
      ...[RAPAMYCIN_MICE].map((p) => `${p.title}\n\n${p.abstract}`),
    ]
    for (const text of texts) expect(tokenize(text)).toEqual(byExpression(text))
  })

  test('ignores case and punctuation, accepts plurals and everyday names', () => {
    expect(keys('LIFE-SPAN of C.elegans')).toEqual(['phenotype:lifespan', 'organism:NCBITaxon:6239'])
    expect(keys('old mice and senescent cells')).toContain('organism:NCBITaxon:10090')
    expect(keys("sirtuin 1 and Alzheimer's disease")).toEqual(['gene:NCBIGene:23411', 'disease:MESH:D000544'])
  })

  test('matches short acronyms only in their own case', () => {
    expect(keys('CMA declines with age')).toEqual(['pathway:GO:0061684'])
    expect(keys('the cma of the sample')).toEqual([])
  })

  test('reads gene symbols only as written, with the mouse spelling, and never a blacklisted or word-like symbol', () => {
    expect(keys('Cdkn2a and CDKN2A, SIRT1 and Sirt1, daf-16 and DAF-16')).toEqual([
      'gene:NCBIGene:1029',
      'gene:NCBIGene:1029',
      'gene:NCBIGene:23411',
      'gene:NCBIGene:23411',
      'gene:NCBIGene:172981',
      'gene:NCBIGene:172981',
    ])
    expect(keys('cdkn2a and daf 16 and Sirt-1')).toEqual([])
    expect(keys('MSC and TORC1 and CA1 and PI3 kinase')).toEqual([]) // stem cells, an mTOR complex, the hippocampus, a lipid kinase
  })

  test('reads p16, p16INK4a and CDKN2A as one gene', () => {
    expect(new Set(keys('p16 and P16 and p16INK4a and CDKN2A'))).toEqual(new Set(['gene:NCBIGene:1029']))
  })

  test('reads an abbreviation only where the text backs it up or defines it', () => {
    expect(keys('NR was given to all groups.')).toEqual([])
    expect(keys('Nicotinamide riboside raised NAD+. NR was safe.')).toContain('intervention:CHEBI:15927')
    expect(keys('The CAT assay was used.')).toEqual([]) // three capitals: a gene only where the text names it
    expect(keys('Catalase (CAT) activity rose; CAT protein too.')).toEqual([
      'gene:NCBIGene:847',
      'gene:NCBIGene:847',
      'gene:NCBIGene:847',
    ])
    // A definition in the text wins over the lexicon, even for letters the lexicon does not know.
    expect(keys('Caloric restriction (CR) extended lifespan; CR also lowered IGF-1.').slice(0, 3)).toEqual([
      'intervention:caloric-restriction',
      'intervention:caloric-restriction',
      'phenotype:lifespan',
    ])
  })

  test('keeps the longest term', () => {
    expect(keys('senescence-associated secretory phenotype')).toEqual([
      'pathway:senescence-associated-secretory-phenotype',
    ])
  })
})

describe('sentences', () => {
  test('do not break at species abbreviations, e.g. or decimals', () => {
    const s = splitSentences(
      'Work in C. elegans and D. melanogaster, e.g. in flies, gave 2.5-fold gains. mTOR fell. Done.',
    )
    expect(s.map((x) => x.text)).toEqual([
      'Work in C. elegans and D. melanogaster, e.g. in flies, gave 2.5-fold gains.',
      'mTOR fell.',
      'Done.',
    ])
  })
})

describe('claims', () => {
  test('reads subject, relation, object, magnitude and evidence', () => {
    const [c] = claimsOf('Rapamycin extended median lifespan by 12% in male mice.')
    expect(c).toMatchObject({
      subject: { text: 'Rapamycin', entity: { type: 'intervention', key: 'CHEBI:9168' } },
      relation: 'extends_lifespan',
      object: { entity: { type: 'phenotype', key: 'lifespan' } },
      organism: 'Mus musculus',
      direction: 'increase',
      magnitude: '12%',
      evidence: 'Rapamycin extended median lifespan by 12% in male mice.',
    })
    expect(c.context).toMatchObject({ sex: 'male', primary: true, design: 'in vivo' })
  })

  test('turns the passive round', () => {
    const [c] = claimsOf('mTOR signalling was inhibited by rapamycin.')
    expect(c.subject.entity?.key).toBe('CHEBI:9168')
    expect(c.object.entity?.key).toBe('GO:0031929')
    expect(c.relation).toBe('decreases')
  })

  test('reads negative results as no change and associations without direction', () => {
    expect(claimsOf('Metformin did not change lifespan in worms.')[0]).toMatchObject({
      relation: 'no_effect_on',
      direction: 'no_change',
      organism: 'Caenorhabditis elegans',
    })
    expect(claimsOf('Higher IL-6 levels were associated with frailty in older adults.')[0]).toMatchObject({
      relation: 'associated_with',
      direction: null,
    })
    expect(claimsOf('Spermidine protects against cognitive decline.')[0]).toMatchObject({
      relation: 'protects_against',
      object: { entity: { key: 'cognitive-decline' } },
    })
  })

  test('skips aims and lowers confidence for hedged or background statements', () => {
    expect(claimsOf('We aimed to test whether rapamycin extends lifespan.')).toEqual([])
    const [firm] = claimsOf('Background words here. More words. We found that rapamycin reduced IL-6 levels.')
    const [hedged] = claimsOf(
      'Background words here. More words. Rapamycin may reduce IL-6 levels, which could suggest benefit.',
    )
    expect(firm.confidence).toBeGreaterThan(hedged?.confidence ?? 0)
  })
})

describe('entities', () => {
  const { entities } = analyzePaper(RAPAMYCIN_MICE)
  const find = (key: string) => entities.find((e) => e.key === key)

  test('give the studied intervention its class, targets, dose, route and duration', () => {
    expect(find('CHEBI:9168')).toMatchObject({
      type: 'intervention',
      role: 'studied',
      detail: {
        class: 'mTOR inhibitor',
        targets: ['NCBIGene:2475'],
        dose: '14 ppm',
        route: 'diet',
        duration: '12 weeks',
        major: true,
        chemical: 'Sirolimus',
        registry: 'W36ZG6FT64',
        mention: 'Rapamycin',
      },
    })
  })

  test('give the model organism its species, strain, sex, age and n', () => {
    expect(find('NCBITaxon:10090')).toMatchObject({
      role: 'model',
      detail: { species: 'Mus musculus', strain: 'C57BL/6J', sex: 'male', age: 'aged 20 months', n: 40 },
    })
  })

  test('mark outcomes with the effect the claims report', () => {
    expect(find('lifespan')).toMatchObject({
      role: 'outcome',
      detail: { effect: 'extends_lifespan', direction: 'increase', magnitude: '12%' },
    })
    expect(find('UBERON:0002107')?.role).toBe('context')
  })

  test('never produce the harvester-owned indexed role, and every role is in the contract', () => {
    const roles = new Set(entities.map((e) => e.role))
    expect(roles.has('indexed')).toBe(false)
    for (const r of roles)
      expect(['studied', 'mechanism', 'outcome', 'model', 'context', 'target', 'mentioned']).toContain(r)
  })
})

describe('stories and support', () => {
  test('newsworthy papers get a story whose caveats name the study type and organism', () => {
    const { story, judgement } = analyzePaper(RAPAMYCIN_MICE)
    expect(judgement.newsworthiness).toBeGreaterThanOrEqual(2)
    expect(story).not.toBeNull()
    expect(story!.headline).toBe('Rapamycin extends lifespan in mice')
    expect(story!.caveats).toContain('animal study in mice')
    expect(story!.body.split('\n\n').length).toBeGreaterThanOrEqual(2)
    expect(story!.support).toBe(3)
  })

  // Since issue 14 a cell study is at most notable (newsworthiness 1: the guidelines keep 2 for in vivo efficacy),
  // so the analyzer writes it no story; the story writer is asked directly, as for a cell paper an editor promotes.
  test('a study of human cells is about human cells, not people', () => {
    const input = paperInput({
      title: 'Senolytics clear senescent human fibroblasts and reduce the SASP',
      abstract:
        'Human fibroblasts were cultured in vitro and induced to senesce. Dasatinib plus quercetin reduced senescent cell burden by 60% and lowered IL-6 levels by 40%.',
      mesh: ['Humans', 'Cells, Cultured', 'Cellular Senescence*', 'Fibroblasts'],
      journal: 'Nature Aging',
      keywords: ['senolytics', 'aging'],
    })
    const { judgement, entities, claims } = analyzePaper(input)
    expect(judgement.studyType).toBe('cells')
    const story = writeStory(input, { ...judgement, newsworthiness: 2 }, entities, claims)
    expect(`${story!.headline} ${story!.dek} ${story!.body}`).not.toMatch(/\bpeople\b/)
    expect(story!.caveats).toContain('cell study in human cells')
  })

  test('routine papers get none', () => {
    expect(
      analyzePaper(paperInput({ title: 'Lung cancer outcomes', abstract: 'We report outcomes.', mesh: ['Humans'] }))
        .story,
    ).toBeNull()
  })

  const abstract = 'Rapamycin extended median lifespan by 12% in male mice. Rapamycin reduced IL-6 levels.'
  const story = (body: string, headline = 'Rapamycin and lifespan') => ({
    headline,
    dek: 'A mouse study.',
    body,
    whyItMatters: '',
    caveats: 'In mice.',
  })
  const inMice = (source: string) => ({
    studyType: 'animal' as const,
    record: { title: '', abstract: source, publicationTypes: [] },
    claimOrganisms: ['NCBITaxon:10090'],
  })

  test.each([
    ['a faithful story', story('Rapamycin extended lifespan by 12% in mice.'), 3],
    ['a number the abstract does not state', story('Rapamycin extended lifespan by 30% in mice.'), 2],
    ['an organism the abstract does not name', story('Rapamycin extended lifespan in zebrafish.'), 1],
    ['effects in people from a mouse study', story('Rapamycin extends lifespan in humans.'), 1],
    ['hype', story('A breakthrough: rapamycin is a cure for aging in mice.'), 1],
    ['the opposite direction', story('Rapamycin increased IL-6 levels in mice.'), 0],
  ])('scores %s', (_name, draft, expected) => {
    expect(checkSupport(draft, abstract, inMice(abstract)).support).toBe(expected)
  })

  test('reads 1,200 and 1200 as the same number, but 12 and 12% as different', () => {
    const source = 'In 1,200 mice, rapamycin extended median lifespan by 12%.'
    expect(
      checkSupport(story('Across 1200 mice, rapamycin extended lifespan by 12%.'), source, inMice(source)).support,
    ).toBe(3)
    expect(checkSupport(story('Rapamycin added 12 days of life in mice.'), source, inMice(source)).support).toBe(2)
  })
})
