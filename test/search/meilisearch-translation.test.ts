/** The Meilisearch backend's pure parts: our query syntax, the filters and the documents. */
import { describe, expect, test } from 'bun:test'
import { paperFilterParams } from '../../src/modules/v1/papers'
import { INDEX_SETTINGS, MEILI_MAX_HITS, paperDocument } from '../../src/search/meilisearch/documents'
import { translateFilters } from '../../src/search/meilisearch/filters'
import { MAX_BRANCHES, translateQuery } from '../../src/search/meilisearch/query'
import { operandsOf, readWebsearch, withoutStopWords } from '../../src/search/websearch'

/** The Meilisearch queries for `q` when none of its words is a stop word (those need PostgreSQL: websearch-parity.test.ts). */
const translate = (q: string) => {
  const read = readWebsearch(q)
  return translateQuery(
    withoutStopWords(
      read,
      operandsOf(read).map(() => true),
    ),
  )
}

describe('query translation', () => {
  // PostgreSQL's reading (websearch_to_tsquery): AND binds tighter than OR, and an exclusion belongs
  // to its own alternative. `rapamycin mice OR metformin worms` is ('rapamycin' & 'mice') | ('metformin' & 'worm').
  test.each([
    ['rapamycin mice', ['rapamycin mice']],
    ['"dietary restriction" mice', ['"dietary restriction" mice']],
    ['rapamycin OR metformin', ['rapamycin', 'metformin']],
    ['rapamycin mice OR metformin worms', ['rapamycin mice', 'metformin worms']],
    ['aging rapamycin OR metformin mice', ['aging rapamycin', 'metformin mice']],
    ['rapamycin or metformin', ['rapamycin', 'metformin']],
    ['rapamycin Or metformin', ['rapamycin', 'metformin']],
    ['rapamycin OR metformin OR acarbose', ['rapamycin', 'metformin', 'acarbose']],
    ['senolytic -mice', ['senolytic -mice']],
    ['senolytic - mice', ['senolytic -mice']],
    ['- klotho aging', ['-klotho aging']],
    ['senolytic -"cell culture"', ['senolytic -"cell culture"']],
    ['rapamycin OR metformin -mice', ['rapamycin', 'metformin -mice']],
    ['rapamycin OR -mice', ['rapamycin', '-mice']],
    ['--mice rapamycin', ['mice rapamycin']],
    ['GLP-1 agonists', ['GLP1 agonists']],
    ['"unbalanced quote', ['"unbalanced quote"']],
    ['senolytic<->cocktail', ['senolytic >cocktail']],
    ['senolytic (-cocktail)', ['senolytic cocktail']],
    ['rapamycin -(mice)', ['rapamycin -mice']],
    ['rapamycin -<mice', ['rapamycin -mice']],
    ['senolytic -', ['senolytic']],
    ['rapamycin "mice"or worms', ['rapamycin "mice"', 'worms']],
    ['oregon orcas ORmice', ['oregon orcas ORmice']],
    ['-', []],
  ])('%s', (q, branches) => {
    expect(translate(q)).toEqual(branches)
  })

  test('a negated word that starts with punctuation is quoted, so the minus keeps its word', () => {
    expect(translate('senolytic -:cocktail')).toEqual(['senolytic -":cocktail"'])
  })

  test('too many alternatives are left to PostgreSQL', () => {
    const alternatives = (n: number) => Array.from({ length: n }, (_, i) => `drug${i}`).join(' OR ')
    expect(translate(alternatives(MAX_BRANCHES))).toHaveLength(MAX_BRANCHES)
    expect(translate(alternatives(MAX_BRANCHES + 1))).toBeNull()
  })
})

describe('readings of a query (American, British, plurals: geroscope_variants)', () => {
  const read = (text: string, variants: string[], negations = 0, phrase = false) => ({
    text,
    phrase,
    negations,
    variants,
  })

  test('each combination of readings is one query; an exclusion excludes every reading', () => {
    expect(
      translateQuery([
        [read('rapamycin', ['rapamycin']), read('mice', ['mice', 'mouse']), read('tumours', ['tumours', 'tumors'], 1)],
      ]),
    ).toEqual(['rapamycin mice -tumours -tumors', 'rapamycin mouse -tumours -tumors'])
  })

  test('a phrase is read whole', () => {
    expect(translateQuery([[read('rapamycin in mice', ['rapamycin in mice', 'rapamycin in mouse'], 0, true)]])).toEqual(
      ['"rapamycin in mice"', '"rapamycin in mouse"'],
    )
  })

  test('more combinations than MAX_BRANCHES are left to PostgreSQL', () => {
    const five = (w: string) => read(w, [w, `${w}1`, `${w}2`])
    expect(translateQuery([[five('a'), five('b')]])).toHaveLength(9)
    expect(translateQuery([[five('a'), five('b'), five('c')]])).toBeNull()
  })
})

describe('index settings bound the ranking', () => {
  test(`Meilisearch ranks one hit more than the ${MEILI_MAX_HITS} it serves, so that a cut ranking is known`, () => {
    expect(MEILI_MAX_HITS).toBeGreaterThanOrEqual(1000)
    expect(INDEX_SETTINGS.pagination.maxTotalHits).toBe(MEILI_MAX_HITS + 1)
  })
})

describe('filter translation', () => {
  test('every /papers filter, values quoted', () => {
    expect(
      translateFilters({
        minRelevance: 2,
        since: '2026-01-01',
        until: '2026-11-21',
        studyType: ['animal', 'human'],
        topic: ['senescence'],
        preprint: false,
      }),
    ).toEqual([
      'relevance >= 2',
      'indexed_day >= 20260101',
      'indexed_day <= 20261121',
      'study_type IN ["animal", "human"]',
      'topic IN ["senescence"]',
      'preprint = false',
    ])
  })

  test('min_relevance=0 filters nothing, so unjudged papers stay in', () => {
    expect(translateFilters({ minRelevance: 0 })).toEqual([])
  })

  test('every /papers filter names a filterable attribute', () => {
    const all = translateFilters({
      minRelevance: 1,
      since: '2026-01-01',
      until: '2026-02-01',
      publishedSince: '2025-12-01',
      publishedUntil: '2025-12-31',
      studyType: ['animal'],
      topic: ['senescence'],
      preprint: true,
    })
    expect(all).toHaveLength(Object.keys(paperFilterParams).length) // one condition per filter the contract lists
    for (const f of all) expect(INDEX_SETTINGS.filterableAttributes).toContain(f.split(' ')[0])
  })
})

describe('index settings', () => {
  const fields = Object.keys(
    paperDocument({
      id: 'MED-1',
      title: 't',
      abstract: 'a',
      relevance: 2,
      indexedDate: '2026-11-02',
      publishedDate: '2026-10-30',
      studyType: null,
      topic: null,
      preprint: false,
    }),
  )

  // The contract matches over title and abstract: keywords and MeSH are neither searched nor sent.
  test('search the title, then the abstract, as the PostgreSQL weights do, and nothing else', () => {
    expect(INDEX_SETTINGS.searchableAttributes).toEqual(['title', 'abstract'])
    expect(INDEX_SETTINGS.rankingRules.indexOf('attribute')).toBeGreaterThanOrEqual(0) // so that order ranks
    for (const a of INDEX_SETTINGS.searchableAttributes) expect(fields).toContain(a)
  })

  test("every filter's attribute is filterable, and the date sortable", () => {
    expect([...INDEX_SETTINGS.filterableAttributes].sort()).toEqual([
      'indexed_day',
      'preprint',
      'published_day',
      'relevance',
      'study_type',
      'topic',
    ])
    expect(INDEX_SETTINGS.sortableAttributes).toContain('indexed_day')
    for (const a of [...INDEX_SETTINGS.filterableAttributes, ...INDEX_SETTINGS.sortableAttributes])
      expect(fields).toContain(a)
  })

  test('equal text matches fall to judgement relevance, then recency', () => {
    expect(INDEX_SETTINGS.rankingRules.slice(-2)).toEqual(['relevance:desc', 'indexed_day:desc'])
  })
})

describe('document mapping', () => {
  const source = {
    id: 'MED-1',
    title: 'GLP-1 and aging',
    abstract: 'IL-6 fell.',
    relevance: 2.5,
    indexedDate: '2026-11-02',
    studyType: 'human',
    topic: 'metabolism',
    preprint: false,
  }

  test('maps a judged paper', () => {
    expect(paperDocument(source)).toEqual({
      id: 'MED-1',
      title: 'GLP1 and aging',
      abstract: 'IL6 fell.',
      relevance: 2.5,
      indexed_day: 20261102,
      study_type: 'human',
      topic: 'metabolism',
      preprint: false,
    })
  })

  test('a publication date is a day number, and a paper without one has no published_day, as none passes a bound on it', () => {
    expect(paperDocument({ ...source, publishedDate: '2026-10-30' }).published_day).toBe(20261030)
    expect('published_day' in paperDocument({ ...source, publishedDate: null })).toBe(false)
    expect(translateFilters({ minRelevance: 0, publishedSince: '2026-10-01', publishedUntil: '2026-10-31' })).toEqual([
      'published_day >= 20261001',
      'published_day <= 20261031',
    ])
  })

  test('an unjudged paper has no relevance attribute, and no abstract is an empty one', () => {
    const doc = paperDocument({ ...source, relevance: null, abstract: null })
    expect('relevance' in doc).toBe(false)
    expect(doc.abstract).toBe('')
  })
})
