import { beforeAll, describe, expect, test } from 'bun:test'
import { req, useTestApp } from '../../support/app'
import { bearer, insertPapers, paperRow } from '../../support/fixtures'

const api = useTestApp()

const get = async (path: string) => {
  const response = await api.app.handle(req(path, bearer(api.key)))
  return { status: response.status, body: await response.json() }
}
const ids = (body: { data: { id: string }[] }) => body.data.map((p) => p.id)

beforeAll(async () => {
  await insertPapers(api.database.db, [
    paperRow({
      id: 'MED-1',
      title: 'Senolytic therapy clears senescent cells in aged mice',
      abstract: 'Dasatinib and quercetin reduced senescence markers.',
      indexedDate: '2026-10-05',
    }),
    paperRow({
      id: 'MED-2',
      title: 'Exercise and muscle aging',
      abstract: 'Senolytic drugs were not studied; we measured grip strength in older adults.',
      studyType: 'human_observational',
      indexedDate: '2026-10-01',
    }),
    paperRow({
      id: 'MED-3',
      title: 'Rapamycin extends lifespan',
      abstract: 'mTOR inhibition extended lifespan in mice.',
      preprint: false,
    }),
    paperRow({
      id: 'PPR-4',
      source: 'PPR',
      preprint: true,
      title: 'Senolytics in a preprint',
      abstract: 'Senolytic treatment in human cells.',
      topic: 'senescence',
      studyType: 'cells',
      indexedDate: '2026-10-03',
    }),
    paperRow({ id: 'MED-5', title: 'Senolytic trial in tangential context', abstract: 'Senolytic.', relevance: 1.2 }),
    paperRow({ id: 'MED-6', title: 'NAD+ precursors in muscle', abstract: 'Nicotinamide riboside in older adults.' }),
    paperRow({
      id: 'MED-7',
      title: 'GLP-1 agonists and biological age',
      abstract: 'Semaglutide and epigenetic clocks.',
    }),
  ])
})

describe('GET /api/v1/search', () => {
  test('ranks a title match above an abstract-only match, with scores in [0, 1] that fall with the order', async () => {
    const { status, body } = await get('/api/v1/search?q=senolytic')
    expect(status).toBe(200)
    const found = ids(body)
    expect(found).toContain('MED-1')
    expect(found.indexOf('MED-1')).toBeLessThan(found.indexOf('MED-2'))
    const scores = body.data.map((h: { score: number }) => h.score)
    for (const s of scores) expect(s).toBeGreaterThan(0), expect(s).toBeLessThanOrEqual(1)
    expect([...scores].sort((a, b) => b - a)).toEqual(scores)
    expect(found).not.toContain('MED-5') // min_relevance defaults to 2
  })

  test('applies the /papers filters', async () => {
    expect(ids((await get('/api/v1/search?q=senolytic&preprint=true')).body)).toEqual(['PPR-4'])
    expect(ids((await get('/api/v1/search?q=senolytic&min_relevance=1')).body)).toContain('MED-5')
    expect(ids((await get('/api/v1/search?q=senolytic&study_type=human_observational')).body)).toEqual(['MED-2'])
    expect(ids((await get('/api/v1/search?q=senolytic&study_type=animal,cells')).body).sort()).toEqual([
      'MED-1',
      'PPR-4',
    ])
    expect(ids((await get('/api/v1/search?q=senolytic&until=2026-10-03')).body).sort()).toEqual(['MED-2', 'PPR-4'])
    expect(
      ids((await get('/api/v1/search?q=senolytic&since=2026-10-02&until=2026-10-03&topic=senescence')).body),
    ).toEqual(['PPR-4'])
  })

  test('supports phrases, OR and exclusions', async () => {
    expect(ids((await get('/api/v1/search?q=%22extends%20lifespan%22')).body)).toEqual(['MED-3'])
    expect(ids((await get('/api/v1/search?q=rapamycin%20OR%20dasatinib')).body).sort()).toEqual(['MED-1', 'MED-3'])
    expect(ids((await get('/api/v1/search?q=senolytic%20-grip')).body)).not.toContain('MED-2')
  })

  test('pages by cursor through the ranked list', async () => {
    const all = ids((await get('/api/v1/search?q=senolytic&min_relevance=0&limit=100')).body)
    const walked: string[] = []
    let cursor: string | null = null
    do {
      const { body } = await get(
        `/api/v1/search?q=senolytic&min_relevance=0&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      )
      walked.push(...ids(body))
      cursor = body.pagination.next_cursor
    } while (cursor)
    expect(walked).toEqual(all)
    expect(all.length).toBeGreaterThanOrEqual(4)
  })

  test.each([
    ['a missing q', '', 'q is required'],
    ['an empty q', '?q=', 'q must not be empty'],
    ['a blank q', '?q=%20%20', 'q is required'],
    ['only stop words', '?q=the%20and%20of', 'q has no searchable words'],
    ['a lone minus', '?q=-', 'q has no searchable words'],
    ['minuses alone', '?q=-%20-', 'q has no searchable words'],
    ['OR alone', '?q=OR', 'q has no searchable words'],
    ['a lone quote', '?q=%22', 'q has no searchable words'],
    ['an asterisk', '?q=*', 'q has no searchable words'],
    ['a q over 500 characters', `?q=${'x'.repeat(501)}`, 'q must be at most 500 characters'],
    ['an unknown parameter', '?q=mice&sort=date', 'unknown parameter "sort"'],
  ])('%s is 400 invalid_parameter', async (_name, query, message) => {
    const { status, body } = await get(`/api/v1/search${query}`)
    expect(status).toBe(400)
    expect(body.error.message).toContain(message)
  })

  test('an unbalanced quote reads as if it were closed', async () => {
    const { status, body } = await get(`/api/v1/search?q=${encodeURIComponent('"senolytic')}`)
    expect(status).toBe(200)
    expect(ids(body)).toEqual(ids((await get('/api/v1/search?q=senolytic')).body))
  })

  // Operators, stray punctuation and a lone prefix star must neither fail nor match every paper.
  test('symbols around words search for the words alone', async () => {
    const { status, body } = await get(`/api/v1/search?q=${encodeURIComponent('NAD+ OR GLP-1 & | ! :*')}`)
    expect(status).toBe(200)
    expect(ids(body).sort()).toEqual(['MED-6', 'MED-7'])
  })
})
