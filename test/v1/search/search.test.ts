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
    paperRow({ id: 'MED-1', title: 'Senolytic therapy clears senescent cells in aged mice', abstract: 'Dasatinib and quercetin reduced senescence markers.' }),
    paperRow({ id: 'MED-2', title: 'Exercise and muscle aging', abstract: 'Senolytic drugs were not studied; we measured grip strength in older adults.' }),
    paperRow({ id: 'MED-3', title: 'Rapamycin extends lifespan', abstract: 'mTOR inhibition extended lifespan in mice.', preprint: false }),
    paperRow({ id: 'PPR-4', source: 'PPR', preprint: true, title: 'Senolytics in a preprint', abstract: 'Senolytic treatment in human cells.', topic: 'senescence' }),
    paperRow({ id: 'MED-5', title: 'Senolytic trial in tangential context', abstract: 'Senolytic.', relevance: 1.2 }),
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
      const { body } = await get(`/api/v1/search?q=senolytic&min_relevance=0&limit=1${cursor ? `&cursor=${cursor}` : ''}`)
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
    ['a q over 500 characters', `?q=${'x'.repeat(501)}`, 'q must be at most 500 characters'],
    ['an unknown parameter', '?q=mice&sort=date', 'unknown parameter "sort"'],
  ])('%s is 400 invalid_parameter', async (_name, query, message) => {
    const { status, body } = await get(`/api/v1/search${query}`)
    expect(status).toBe(400)
    expect(body.error.message).toContain(message)
  })

  test.each([['an unbalanced quote', '"senolytic'], ['a lone minus', '-'], ['symbols', 'NAD+ OR GLP-1 & | ! :*']])(
    '%s never fails with a 500', async (_name, q) => {
      const { status } = await get(`/api/v1/search?q=${encodeURIComponent(q)}`)
      expect([200, 400]).toContain(status)
    })
})
