/** The Meilisearch backend's pure parts: our query syntax, the filters and the documents. */
import { describe, expect, test } from 'bun:test'
import { INDEX_SETTINGS, paperDocument } from '../../src/search/meilisearch/documents'
import { translateFilters } from '../../src/search/meilisearch/filters'
import { MAX_BRANCHES, branchQuery, translateQuery } from '../../src/search/meilisearch/query'

describe('query translation', () => {
  test.each([
    ['rapamycin mice', ['rapamycin mice'], []],
    ['"dietary restriction" mice', ['"dietary restriction" mice'], []],
    ['rapamycin OR metformin', ['rapamycin', 'metformin'], []],
    ['aging rapamycin OR metformin mice', ['aging rapamycin mice', 'aging metformin mice'], []],
    ['senolytic -mice', ['senolytic'], ['-mice']],
    ['senolytic -"cell culture"', ['senolytic'], ['-"cell culture"']],
    ['GLP-1 agonists', ['GLP1 agonists'], []],
    ['"unbalanced quote', ['"unbalanced quote"'], []],
    ['-', [], []],
    ['OR rapamycin OR', ['rapamycin'], []],
    ['a OR b OR c', ['a', 'b', 'c'], []],
  ])('%s', (q, branches, exclusions) => {
    expect(translateQuery(q)).toEqual({ branches, exclusions })
  })

  test('an exclusion joins every branch', () => {
    const { branches, exclusions } = translateQuery('rapamycin OR metformin -mice')!
    expect(branches.map((b) => branchQuery(b, exclusions))).toEqual(['rapamycin -mice', 'metformin -mice'])
  })

  test('too many alternatives are left to PostgreSQL', () => {
    const words = Array.from({ length: 5 }, (_, i) => `a${i} OR b${i}`).join(' ') // 2^5 = 32 branches
    expect(2 ** 5).toBeGreaterThan(MAX_BRANCHES)
    expect(translateQuery(words)).toBeNull()
  })
})

describe('filter translation', () => {
  test('every /papers filter, values quoted', () => {
    expect(translateFilters({
      minRelevance: 2, since: '2026-01-01', until: '2026-11-21', studyType: ['animal', 'human'], topic: ['senescence'], preprint: false,
    })).toEqual([
      'relevance >= 2', 'indexed_day >= 20260101', 'indexed_day <= 20261121', 'study_type IN ["animal", "human"]',
      'topic IN ["senescence"]', 'preprint = false',
    ])
  })

  test('min_relevance=0 filters nothing, so unjudged papers stay in', () => {
    expect(translateFilters({ minRelevance: 0 })).toEqual([])
  })

  test('every filter names a filterable attribute', () => {
    const all = translateFilters({ minRelevance: 1, since: '2026-01-01', studyType: ['animal'], topic: ['senescence'], preprint: true })
    for (const f of all) expect(INDEX_SETTINGS.filterableAttributes).toContain(f.split(' ')[0])
  })
})

describe('document mapping', () => {
  const source = {
    id: 'MED-1', title: 'GLP-1 and aging', abstract: 'IL-6 fell.', keywords: ['GLP-1'],
    meshHeadings: [{ descriptor: 'Aging', major: true, qualifiers: ['physiology'] }],
    relevance: 2.5, indexedDate: '2026-11-02', studyType: 'human', topic: 'metabolism', preprint: false,
  }

  test('maps a judged paper', () => {
    expect(paperDocument(source)).toEqual({
      id: 'MED-1', title: 'GLP1 and aging', keywords: ['GLP1'], mesh: ['Aging'], abstract: 'IL6 fell.', relevance: 2.5,
      indexed_day: 20261102, study_type: 'human', topic: 'metabolism', preprint: false,
    })
  })

  test('an unjudged paper has no relevance attribute, and no abstract is an empty one', () => {
    const doc = paperDocument({ ...source, relevance: null, abstract: null })
    expect('relevance' in doc).toBe(false)
    expect(doc.abstract).toBe('')
  })
})
