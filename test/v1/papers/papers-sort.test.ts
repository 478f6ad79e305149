/**
 * The orders and publication dates of /api/v1/papers (src/resources/papers/paper-order.ts) and the publication dates of
 * /api/v1/search, as the contract's tests read them: bad values are 400 invalid_parameter naming the parameter;
 * each sort pages to the end without repeats or gaps, ties broken by id, in full and `fields=` answers, whatever
 * way the page is read (more papers than a page's first window, and a rare filter); a cursor pages only in the
 * order it was made in; count and group_by count what the pages hold.
 */
import { beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { encodeCursor } from '../../../src/http/cursor'
import { TEST_SECRET, req, useTestApp } from '../../support/app'
import { bearer, createTestKey, insertPapers, paperRow } from '../../support/fixtures'
import { expectInvalidParameter } from '../../support/expect'
import { getter, walk } from '../../support/fixtures-knowledge'

const api = useTestApp()
// A key of its own for each test: walks to the end with small pages make many requests.
let key = ''
beforeEach(async () => {
  key = (await createTestKey(api.database.db, { tier: 'pro' })).key
})
const get = getter({ handle: (request) => api.app.handle(request) }, () => key)
const expect400 = async (path: string, message: string) =>
  expectInvalidParameter(await api.app.handle(req(path, bearer(key))), message)

const PAPERS = 1_200 // more than a page's first window reads (src/queries/windowed-page.ts)
const DAY = 86_400_000
const dateOf = (t: number) => new Date(t).toISOString().slice(0, 10)
const numbers = Array.from({ length: PAPERS }, (_, i) => i + 1)

// Many papers share each key: about forty an indexed date, twenty a publication date, hundreds a newsworthiness.
const paper = (n: number) => ({
  n,
  id: `MED-${80_000_000 + ((n * 7_919) % 100_000)}`, // ids do not follow n's order
  indexedDate: dateOf(Date.UTC(2026, 5, 1) + Math.floor(n / 40) * DAY),
  publishedDate: n % 17 === 0 ? null : dateOf(Date.UTC(2025, 0, 1) + ((n * 13) % 60) * DAY),
  newsworthiness: n % 11 === 0 ? null : [0, 0.5, 1, 1.5, 2.25][n % 5],
  relevance: n % 9 === 0 ? 1 : 2.5, // below the default min_relevance for one in nine
  topic: n % 6 === 0 ? 'senescence' : 'other',
  rare: [7, 600, 1_190].includes(n),
})
type P = ReturnType<typeof paper>
const all = numbers.map(paper)

const desc =
  <K>(key: (p: P) => K) =>
  (a: P, b: P) => {
    const [x, y] = [key(a), key(b)]
    return x === y ? (a.id < b.id ? -1 : 1) : x < y ? 1 : -1
  }
// Papers without a publication date or a newsworthiness come last.
const ORDERS: Record<string, (a: P, b: P) => number> = {
  indexed_date: desc((p) => p.indexedDate),
  published_date: desc((p) => p.publishedDate ?? '0000'),
  newsworthiness: desc((p) => p.newsworthiness ?? -1),
}
const publishedIn = (p: P, from: string, to: string) =>
  p.publishedDate !== null && p.publishedDate >= from && p.publishedDate <= to
const expected = (sort: string, wanted: (p: P) => boolean) =>
  all
    .filter((p) => p.relevance >= 2 && wanted(p))
    .sort(ORDERS[sort])
    .map((p) => p.id)

beforeAll(async () => {
  await insertPapers(
    api.database.db,
    all.map((p) =>
      paperRow({
        id: p.id,
        doi: null,
        indexedDate: p.indexedDate,
        publishedDate: p.publishedDate,
        newsworthiness: p.newsworthiness,
        relevance: p.relevance,
        topic: p.topic,
        abstract: `Paper ${p.n}.`,
        title: `${p.rare ? 'zzrare ' : ''}aging study ${p.n}`,
      }),
    ),
  )
  await api.database.db.execute(sql`analyze papers`)
})

const ids = (body: { data: { id: string }[] }) => body.data.map((p) => p.id)
const paged = async (path: string) => (await walk(get, path)).flatMap(ids)

describe('GET /api/v1/papers and /api/v1/search refuse bad sorts and publication dates', () => {
  test.each([
    [
      '/api/v1/papers?sort=relevance',
      'sort has unknown value "relevance"; allowed: indexed_date, published_date, newsworthiness',
    ],
    ['/api/v1/papers?sort=', 'sort has unknown value ""'],
    ['/api/v1/papers?sort=PUBLISHED_DATE', 'sort has unknown value "PUBLISHED_DATE"'],
    ['/api/v1/papers?published_since=2026-13-01', 'published_since must be a date'],
    ['/api/v1/papers?published_until=2026-02-30', 'published_until must be a date'],
    ['/api/v1/papers?published_since=yesterday', 'published_since must be a date'],
    ['/api/v1/search?q=aging&published_since=2026-1-1', 'published_since must be a date'],
    ['/api/v1/search?q=aging&published_until=0000-01-01', 'published_until must be a date'],
    ['/api/v1/search?q=aging&sort=published_date', 'unknown parameter "sort"'],
    [
      '/api/v1/papers?sort=published_date&updated_since=2026-01-01T00:00:00Z',
      'updated_since cannot be combined with sort',
    ],
  ])('%s', async (path, message) => {
    await expect400(path, message)
  })

  test('a cursor made in one order is refused in another, both ways', async () => {
    const cursorOf = async (path: string) => (await get(path)).body.pagination.next_cursor as string
    const byDefault = await cursorOf('/api/v1/papers?limit=3')
    const published = await cursorOf('/api/v1/papers?limit=3&sort=published_date')
    const newsworthy = await cursorOf('/api/v1/papers?limit=3&sort=newsworthiness')
    for (const [cursor, sort] of [
      [byDefault, 'published_date'],
      [byDefault, 'newsworthiness'],
      [published, 'newsworthiness'],
      [published, 'indexed_date'],
      [newsworthy, 'published_date'],
    ]) {
      await expect400(`/api/v1/papers?limit=3&sort=${sort}&cursor=${cursor}`, 'cursor was made with other filters')
    }
    await expect400(`/api/v1/papers?limit=3&cursor=${published}`, 'cursor was made with other filters')
  })
})

describe('GET /api/v1/papers?sort=', () => {
  test('the default order and its cursors are what they were: sort=indexed_date is the same list', async () => {
    const first = await get('/api/v1/papers?limit=5')
    const newest = expected('indexed_date', () => true)
    expect(ids(first.body)).toEqual(newest.slice(0, 5))
    const last = first.body.data[4]
    expect(first.body.pagination.next_cursor).toBe(
      encodeCursor(TEST_SECRET, 'papers', { minRelevance: 2 }, [last.indexed_date, last.id]),
    )
    const explicit = await get('/api/v1/papers?limit=5&sort=indexed_date')
    expect(explicit.body).toEqual(first.body)
  })

  for (const sort of ['indexed_date', 'published_date', 'newsworthiness']) {
    test(`${sort}: every paper once, in order, ties by id, across pages of several sizes`, async () => {
      expect(await paged(`/api/v1/papers?sort=${sort}&limit=100`)).toEqual(expected(sort, () => true))
      expect(await paged(`/api/v1/papers?sort=${sort}&limit=100&min_relevance=0`)).toEqual(
        all
          .slice()
          .sort(ORDERS[sort])
          .map((p) => p.id),
      )
      const senescence = expected(sort, (p) => p.topic === 'senescence')
      for (const limit of [7, 30]) {
        expect(await paged(`/api/v1/papers?sort=${sort}&topic=senescence&limit=${limit}`)).toEqual(senescence)
      }
    })

    test(`${sort}: fields= pages, a rare word and a publication range read the same papers`, async () => {
      expect(await paged(`/api/v1/papers?sort=${sort}&fields=id,title&limit=9`)).toEqual(expected(sort, () => true))
      const rare = expected(sort, (p) => p.rare)
      for (const limit of [1, 2]) {
        expect(await paged(`/api/v1/papers?sort=${sort}&q=zzrare&limit=${limit}`)).toEqual(rare)
        expect(await paged(`/api/v1/papers?sort=${sort}&q=zzrare&fields=id&limit=${limit}`)).toEqual(rare)
      }
      const range = (p: P) => publishedIn(p, '2025-01-20', '2025-02-10')
      const inRange = expected(sort, range)
      expect(inRange.length).toBeGreaterThan(100)
      const path = `/api/v1/papers?sort=${sort}&published_since=2025-01-20&published_until=2025-02-10`
      expect(await paged(`${path}&limit=25`)).toEqual(inRange)
      expect(await paged(`${path}&fields=id&limit=25`)).toEqual(inRange)
    })
  }

  test('each row carries the key it is sorted by', async () => {
    const { body } = await get('/api/v1/papers?sort=newsworthiness&limit=100')
    const values = body.data.map((p: { judgement: { newsworthiness: number } }) => p.judgement.newsworthiness)
    expect(values).toEqual([...values].sort((a: number, b: number) => b - a))
    expect(values[0]).toBe(2.25)
  })
})

describe('published_since and published_until filter by publication date; since and until stay on indexed_date', () => {
  const published = (p: P) => p.publishedDate !== null && p.publishedDate >= '2025-02-01'
  const indexed = (p: P) => p.indexedDate <= '2026-06-10'

  test('/papers: every paper published from the date and none without a date, since and until as before', async () => {
    expect(await paged('/api/v1/papers?published_since=2025-02-01&limit=100')).toEqual(
      expected('indexed_date', published),
    )
    expect(await paged('/api/v1/papers?published_until=2025-01-31&until=2026-06-10&limit=100')).toEqual(
      expected('indexed_date', (p) => publishedIn(p, '0000', '2025-01-31') && indexed(p)),
    )
    // A full timestamp is cut to its UTC date, as for since and until.
    expect(await paged('/api/v1/papers?published_since=2025-02-01T23:00:00-05:00&limit=100')).toEqual(
      expected('indexed_date', (p) => p.publishedDate !== null && p.publishedDate >= '2025-02-02'),
    )
  })

  test('count and group_by count the papers the pages hold', async () => {
    for (const query of [
      'published_since=2025-02-01',
      'published_until=2025-01-31&topic=senescence',
      'published_since=2025-01-10&published_until=2025-01-20&min_relevance=2.25',
      'published_since=2025-02-01&q=zzrare',
    ]) {
      const pagedIds = await paged(`/api/v1/papers?${query}&limit=100`)
      const { body } = await get(`/api/v1/papers?${query}&count=true&group_by=topic&limit=1`)
      expect(body.pagination.total).toBe(pagedIds.length)
      expect(body.pagination.total_estimated).toBeUndefined()
      const topics = all.filter((p) => pagedIds.includes(p.id))
      const senescence = topics.filter((p) => p.topic === 'senescence').length
      const groups = [
        { key: 'other', count: topics.length - senescence },
        { key: 'senescence', count: senescence },
      ]
      expect(body.group_by).toEqual(groups.filter((g) => g.count > 0).sort((a, b) => b.count - a.count))
    }
  })

  test('/search applies them to its hits', async () => {
    const hits = await paged('/api/v1/search?q=aging&published_since=2025-02-01&until=2026-06-10&limit=100')
    expect(hits.slice().sort()).toEqual(expected('indexed_date', (p) => published(p) && indexed(p)).sort())
    const rare = await paged('/api/v1/search?q=zzrare&published_until=2025-01-31&limit=100')
    const wanted = expected('indexed_date', (p) => p.rare && publishedIn(p, '0000', '2025-01-31'))
    expect(rare.slice().sort()).toEqual(wanted.sort())
  })
})
