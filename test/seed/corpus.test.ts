/** The synthetic corpus generator: determinism, shape and internal consistency (no database). */
import { describe, expect, test } from 'bun:test'
import { curatedLexicon as lexicon } from '../../src/lexicon/lexicon'
import { generateCorpus, generatePaper, type CorpusOptions, type PaperBundle } from '../../src/seed/corpus'
import { MESH_VOCABULARY } from '../../src/seed/mesh'
import { meshKey } from '../../src/lexicon/mesh-key'

const END = '2025-06-30'
const options: CorpusOptions = { papers: 300, seed: 42, endDate: END }
const demo: PaperBundle[] = [...generateCorpus({ papers: 2000, seed: 1, endDate: END })]
const papers = demo.map((b) => b.paper)
const judged = papers.filter((p) => p.relevance !== null)
const share = (n: number, of: number) => n / of

describe('determinism', () => {
  test('the same seed and end date give identical bundles', () => {
    expect([...generateCorpus(options)]).toEqual([...generateCorpus(options)])
  })

  test('a different seed gives a different corpus', () => {
    const a = [...generateCorpus(options)]
    const b = [...generateCorpus({ ...options, seed: 43 })]
    const ids = new Set(a.map((x) => x.paper.id))
    expect(b.some((x) => ids.has(x.paper.id))).toBe(false)
    const sameTitle = a.filter((x, i) => x.paper.title === b[i]!.paper.title).length
    expect(sameTitle).toBeLessThan(30)
  })

  test('paper k is the same alone, in a full run and in any slice', () => {
    const run = [...generateCorpus(options)]
    for (const k of [0, 1, 137, 299]) expect(generatePaper(k, options)).toEqual(run[k]!)
    expect([...generateCorpus(options, 100, 180)]).toEqual(run.slice(100, 180))
  })

  test('nothing depends on the clock', () => {
    const a = generatePaper(7, options)
    Bun.sleepSync(5)
    expect(generatePaper(7, options)).toEqual(a)
  })
})

describe('shape of the 2,000-paper demo corpus', () => {
  test('no title or abstract doubles a word or a preposition ("in in midlife", "blood blood transcriptomic")', () => {
    const doubled: string[] = []
    for (const { paper } of generateCorpus({ papers: 5000, seed: 1, endDate: '2026-11-01' })) {
      for (const text of [paper.title, paper.abstract ?? ''])
        for (const m of text.matchAll(/\b(\w+) \1\b/gi)) doubled.push(`${paper.id}: ${m[0]}`)
    }
    expect(doubled).toEqual([])
  })

  test('every topic and study type occurs', () => {
    const topics = new Set(judged.map((p) => p.topic))
    const types = new Set(judged.map((p) => p.studyType))
    expect([...topics].sort()).toEqual([
      'brain-aging',
      'dietary-restriction',
      'epigenetic-clocks',
      'glp-1',
      'inflammaging',
      'mitochondria',
      'mtor-rapamycin',
      'nad-sirtuins',
      'other',
      'reprogramming',
      'senescence',
    ])
    expect([...types].sort()).toEqual([
      'animal',
      'cells',
      'computational',
      'human_observational',
      'human_trial',
      'invertebrate',
      'other',
      'review',
    ])
  })

  test('MED and PPR papers look like their sources', () => {
    const med = papers.filter((p) => p.source === 'MED')
    const ppr = papers.filter((p) => p.source === 'PPR')
    expect(share(ppr.length, papers.length)).toBeGreaterThan(0.15)
    expect(share(ppr.length, papers.length)).toBeLessThan(0.25)
    for (const p of med) {
      expect(p.id).toMatch(/^MED-\d+$/)
      expect(p.preprint).toBe(false)
      expect(p.publicationTypes).not.toContain('Preprint')
      expect(p.url).toBe(p.doi ? `https://doi.org/${p.doi}` : `https://europepmc.org/article/MED/${p.id.slice(4)}`)
    }
    const servers = ['bioRxiv', 'medRxiv', 'Research Square', 'SSRN', 'Preprints.org', 'arXiv']
    for (const p of ppr) {
      expect(p.id).toMatch(/^PPR-\d+$/)
      expect(p.preprint).toBe(true)
      expect(p.publicationTypes).toEqual(['Preprint'])
      expect(servers).toContain(p.journal)
      expect(p.meshHeadings).toEqual([])
      expect(p.url).toBe(p.doi ? `https://doi.org/${p.doi}` : `https://europepmc.org/article/PPR/PPR${p.id.slice(4)}`)
    }
    for (const p of papers) if (p.doi) expect(p.doi).toBe(p.doi.toLowerCase())
    expect(share(papers.filter((p) => p.doi === null).length, papers.length)).toBeLessThan(0.09)
  })

  test('relevance spans 0 to 3 in the intended bands', () => {
    const r = judged.map((p) => p.relevance!)
    expect(Math.min(...r)).toBeGreaterThanOrEqual(0)
    expect(Math.max(...r)).toBeLessThanOrEqual(3)
    expect(Math.min(...r)).toBeLessThan(0.1)
    expect(Math.max(...r)).toBeGreaterThan(2.9)
    const low = share(r.filter((x) => x < 1).length, r.length)
    const tangential = share(r.filter((x) => x >= 1 && x < 2).length, r.length)
    const core = share(r.filter((x) => x >= 2.5).length, r.length)
    expect(low).toBeGreaterThan(0.11)
    expect(low).toBeLessThan(0.19)
    expect(tangential).toBeGreaterThan(0.2)
    expect(tangential).toBeLessThan(0.3)
    expect(core).toBeGreaterThan(0.2)
    expect(core).toBeLessThan(0.3)
    const newsworthy = share(judged.filter((p) => p.newsworthiness! >= 2).length, judged.length)
    expect(newsworthy).toBeGreaterThan(0.08)
    expect(newsworthy).toBeLessThan(0.16)
  })

  test('every licence occurs, always lowercase', () => {
    const seen = new Set(papers.map((p) => p.abstractLicense))
    for (const licence of ['cc by', 'cc0', 'public domain', 'cc by-sa', 'cc by-nc', 'cc by-nc-nd', null]) {
      expect(seen.has(licence)).toBe(true)
    }
    for (const licence of seen) if (licence) expect(licence).toBe(licence.toLowerCase())
  })

  test('stories exist exactly for judged papers with newsworthiness and relevance of 2 or more', () => {
    for (const b of demo) {
      const wanted = b.paper.newsworthiness !== null && b.paper.newsworthiness >= 2 && b.paper.relevance! >= 2
      expect(b.story !== null).toBe(wanted)
      if (!b.story) continue
      expect(b.story.paperId).toBe(b.paper.id)
      expect(b.story.body).toContain('\n\n')
      expect(b.story.publishedAt > b.paper.judgedAt!).toBe(true)
      expect(b.story.caveats.toLowerCase()).toContain(b.paper.studyType === 'human_trial' ? 'trial' : 'this was')
      if (b.story.support !== null) expect(b.story.support).toBeWithin(0, 3.0001)
    }
    expect(demo.filter((b) => b.story).length).toBeGreaterThan(100)
  })

  test('judgement, extraction and their timestamps hang together', () => {
    const unjudged = papers.filter((p) => p.relevance === null)
    expect(unjudged.length).toBeGreaterThan(10)
    expect(unjudged.length).toBeLessThan(80)
    for (const b of demo) {
      const p = b.paper
      if (p.relevance === null) {
        expect([p.topic, p.studyType, p.judgedAt, p.judgementModel, p.extractedAt]).toEqual([
          null,
          null,
          null,
          null,
          null,
        ])
      } else {
        expect(p.judgedAt! > p.createdAt).toBe(true)
        expect(p.judgementModel).toBe('geroscope-builtin-1')
        for (const c of [p.relevanceConfidence, p.studyTypeConfidence, p.topicConfidence, p.promotional])
          expect(c!).toBeWithin(0, 1.0001)
      }
      if (p.extractedAt === null) {
        expect(b.entities).toEqual([])
        expect(b.claims).toEqual([])
      } else {
        expect(p.extractedAt > p.judgedAt!).toBe(true)
      }
    }
    expect(share(papers.filter((p) => p.extractedAt).length, judged.length)).toBeGreaterThan(0.92)
  })

  test('dates fall in the 90-day window, weekdays busier than weekends', () => {
    const first = new Date(Date.parse(`${END}T00:00:00Z`) - 89 * 86_400_000).toISOString().slice(0, 10)
    const perDay = new Map<string, number>()
    for (const p of papers) {
      expect(p.indexedDate >= first && p.indexedDate <= END).toBe(true)
      expect(p.createdAt.slice(0, 10)).toBe(p.indexedDate)
      perDay.set(p.indexedDate, (perDay.get(p.indexedDate) ?? 0) + 1)
    }
    expect(perDay.size).toBe(90)
    const weekend = (d: string) => [0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay())
    const mean = (days: [string, number][]) => days.reduce((s, [, n]) => s + n, 0) / days.length
    const entries = [...perDay]
    expect(mean(entries.filter(([d]) => !weekend(d)))).toBeGreaterThan(2 * mean(entries.filter(([d]) => weekend(d))))
    const published = papers.filter((p) => p.publishedDate === null).length
    expect(share(published, papers.length)).toBeLessThan(0.09)
  })

  test('abstracts read like abstracts', () => {
    const abstracts = papers.map((p) => p.abstract).filter((a) => a !== null)
    expect(share(papers.length - abstracts.length, papers.length)).toBeLessThan(0.06)
    const words = abstracts.map((a) => a.split(/\s+/).length)
    expect(Math.min(...words)).toBeGreaterThan(90)
    expect(Math.max(...words)).toBeLessThan(330)
    expect(words.reduce((a, b) => a + b, 0) / words.length).toBeGreaterThan(150)
    expect(new Set(papers.map((p) => p.title)).size).toBeGreaterThan(papers.length * 0.9)
    expect(abstracts.some((a) => a.startsWith('BACKGROUND: '))).toBe(true)
  })
})

describe('entities and claims', () => {
  const known = new Set([
    ...lexicon.map((e) => `${e.type}:${e.key}`),
    ...MESH_VOCABULARY.map((m) => `mesh:${meshKey(m)}`),
  ])
  const claims = demo.flatMap((b) => b.claims.map((c) => ({ paper: b.paper, claim: c })))

  test('every entity referenced is in the lexicon or is a MeSH heading of the paper', () => {
    for (const b of demo) {
      const headings = new Set(b.paper.meshHeadings.map((h) => meshKey(h.descriptor)))
      const seen = new Set<string>()
      for (const e of b.entities) {
        expect(known.has(`${e.type}:${e.key}`)).toBe(true)
        if (e.type === 'mesh') expect(headings.has(e.key)).toBe(true)
        const id = `${e.type}:${e.key}:${e.role}`
        expect(seen.has(id)).toBe(false)
        seen.add(id)
      }
      if (b.paper.extractedAt) {
        expect(b.entities.length).toBeGreaterThanOrEqual(3)
        expect(b.entities.length).toBeLessThanOrEqual(10)
        expect(b.entities.filter((e) => e.type === 'mesh').length).toBe(b.paper.meshHeadings.length)
      }
      for (const c of b.claims) {
        for (const ref of [c.subjectEntity, c.objectEntity])
          if (ref) expect(known.has(`${ref.type}:${ref.key}`)).toBe(true)
      }
    }
    const perPaper = demo.filter((b) => b.paper.extractedAt).map((b) => b.entities.length)
    expect(perPaper.reduce((a, b) => a + b, 0) / perPaper.length).toBeWithin(5, 9.5)
  })

  test('entity mentions quote the text and the studied intervention is named in it', () => {
    const names = new Map(lexicon.map((e) => [`${e.type}:${e.key}`, e.name.toLowerCase()]))
    for (const b of demo) {
      const text = `${b.paper.title} ${b.paper.abstract ?? ''}`
      for (const e of b.entities) {
        if (e.type === 'intervention' && b.paper.abstract)
          expect(text.toLowerCase()).toContain(names.get(`${e.type}:${e.key}`)!)
        const mention = e.detail?.mention
        if (typeof mention === 'string') expect(text).toContain(mention)
        if (b.paper.abstract === null) expect(e.detail?.mention).toBeUndefined()
      }
    }
  })

  test("every claim's evidence is a sentence of its paper's abstract", () => {
    expect(claims.length).toBeGreaterThan(2000)
    for (const { paper, claim } of claims) {
      expect(paper.abstract).not.toBeNull()
      expect(paper.abstract!).toContain(claim.evidence!)
      expect(claim.evidence!).toMatch(/[.)]$/)
      expect(claim.createdAt >= paper.extractedAt!).toBe(true)
    }
  })

  test('relations, directions and contexts are consistent', () => {
    const implied: Record<string, string[]> = {
      increases: ['increase'],
      decreases: ['decrease'],
      extends_lifespan: ['increase'],
      protects_against: ['decrease'],
      reduces_risk_of: ['decrease'],
      improves: ['increase'],
      impairs: ['decrease'],
      associated_with: ['increase', 'decrease', 'no_change', 'mixed'],
    }
    const allowed = new Set([
      'condition',
      'form',
      'sex',
      'age',
      'tissue',
      'dose',
      'duration',
      'n',
      'subject_type',
      'object_type',
      'primary',
      'design',
      'evidence_level',
      'preprint',
    ])
    for (const { paper, claim } of claims) {
      expect(implied[claim.relation]).toContain(claim.direction!)
      if (claim.context) {
        expect(Object.keys(claim.context).length).toBeGreaterThan(0)
        for (const [key, value] of Object.entries(claim.context)) {
          expect(allowed.has(key)).toBe(true)
          expect(value === null || value === undefined || value === '').toBe(false)
        }
      }
      expect(claim.confidence).toBeWithin(0, 1.0001)
      if (paper.preprint && claim.context?.preprint !== undefined) expect(claim.context.preprint).toBe(true)
    }
    const relations = new Set(claims.map((c) => c.claim.relation))
    expect(relations.size).toBe(8)
    const unresolved = claims.filter((c) => !c.claim.subjectEntity && !c.claim.objectEntity).length
    expect(share(unresolved, claims.length)).toBeWithin(0.04, 0.2)
    expect(new Set(claims.map((c) => c.claim.organism))).toContain('Mus musculus')
  })
})

test('ids and DOIs are unique at 20,000 papers', () => {
  const ids = new Set<string>()
  const dois = new Set<string>()
  let withDoi = 0
  for (const { paper } of generateCorpus({ papers: 20_000, seed: 9, endDate: END })) {
    ids.add(paper.id)
    if (paper.doi) {
      withDoi++
      dois.add(paper.doi)
    }
  }
  expect(ids.size).toBe(20_000)
  expect(dois.size).toBe(withDoi)
}, 60_000)
