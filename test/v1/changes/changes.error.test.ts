import { beforeAll, describe, expect, test } from 'bun:test'
import { encodeCursor } from '../../../src/http/cursor'
import { TEST_SECRET, req, useTestApp } from '../../support/app'
import { expectInvalidParameter } from '../../support/expect'
import { bearer, insertClaim, insertPapers, insertStory, paperRow } from '../../support/fixtures'

const api = useTestApp()

beforeAll(async () => {
  await insertPapers(api.database.db, [paperRow({ id: 'MED-1' }), paperRow({ id: 'MED-2' }), paperRow({ id: 'MED-3' })])
  await insertStory(api.database.db, 'MED-1')
  await insertClaim(api.database.db, { paperId: 'MED-1' })
})

const call = async (path: string) => {
  const response = await api.app.handle(req(path, bearer(api.key)))
  return { response, body: await response.clone().json() }
}
const expect400 = async (path: string, message: string) =>
  expectInvalidParameter(await api.app.handle(req(path, bearer(api.key))), message)

const TIMESTAMP_MESSAGE =
  'updated_since must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-01T00:00:00Z, or a date YYYY-MM-DD'

describe('updated_since refuses what is not a point in time, with 400 invalid_parameter', () => {
  test.each([
    ['a word', 'yesterday'],
    ['empty', ''],
    ["no time zone (it would mean the server's)", '2026-11-01T10:00:00'],
    ['month 13', '2026-13-01'],
    ['a day not in the calendar', '2026-02-30'],
    ['hour 25', '2026-11-01T25:00:00Z'],
    ['year 0', '0000-01-01'],
    ['a Unix time', '1798761600'],
    ['more than microseconds', '2026-11-01T00:00:00.1234567Z'],
  ])('%s', async (_, value) => {
    for (const path of ['/api/v1/papers', '/api/v1/stories', '/api/v1/claims', '/api/v1/changes']) {
      await expect400(`${path}?updated_since=${encodeURIComponent(value)}`, `${TIMESTAMP_MESSAGE} (got "${value}")`)
    }
  })

  test('a repeated updated_since', async () => {
    await expect400(
      '/api/v1/papers?updated_since=2026-01-01&updated_since=2026-01-02',
      'updated_since is given more than once',
    )
  })

  test('a time in the future is no error: nothing has changed since', async () => {
    const { response, body } = await call('/api/v1/papers?updated_since=2999-01-01T00:00:00Z')
    expect(response.status).toBe(200)
    expect(body.data).toEqual([])
    expect(body.pagination).toMatchObject({
      next_cursor: null,
      has_more: false,
      limit: 25,
      resume_cursor: expect.any(String),
    })
  })

  test('offsets are read as written: +02:00 is two hours before Z', async () => {
    const now = new Date(Date.now() + 3_600_000) // an hour ahead: nothing
    const local = `${now.toISOString().slice(0, 19)}+02:00` // the same wall time two hours east: an hour ago, so everything since
    expect((await call(`/api/v1/changes?updated_since=${encodeURIComponent(now.toISOString())}`)).body.data).toEqual([])
    expect((await call(`/api/v1/changes?updated_since=${encodeURIComponent(local)}`)).response.status).toBe(200)
  })
})

describe('a feed refuses what belongs to other lists', () => {
  test.each([
    ['/api/v1/papers?updated_since=2026-01-01&q=rapamycin', 'updated_since cannot be combined with q'],
    [
      '/api/v1/papers?updated_since=2026-01-01&ids=MED-1',
      'ids cannot be combined with other parameters (got updated_since)',
    ],
    ['/api/v1/papers?updated_since=2026-01-01&fields=id', 'updated_since cannot be combined with fields'],
    [
      '/api/v1/papers?updated_since=2026-01-01&count=true&group_by=topic',
      'updated_since cannot be combined with count, group_by',
    ],
    ['/api/v1/stories?updated_since=2026-01-01&fields=headline', 'updated_since cannot be combined with fields'],
    ['/api/v1/claims?updated_since=2026-01-01&count=true', 'updated_since cannot be combined with count'],
    ['/api/v1/changes?type=article', 'type has unknown value "article"; allowed: paper, story, claim'],
    [
      '/api/v1/changes?topic=senescence',
      'unknown parameter "topic"; this endpoint takes updated_since, type, cursor, limit',
    ],
    ['/api/v1/changes?limit=101', 'limit must be an integer from 1 to 100'],
  ])('%s', async (path, message) => {
    await expect400(path, message)
  })
})

describe('feed cursors', () => {
  const firstCursor = async (path: string) => (await call(`${path}&limit=1`)).body.pagination.next_cursor as string

  test('are bound to their endpoint, their updated_since and their filters', async () => {
    const feed = await firstCursor('/api/v1/papers?updated_since=2000-01-01')
    expect(feed).toEqual(expect.any(String))
    await expect400(`/api/v1/papers?updated_since=2000-01-02&cursor=${feed}`, 'cursor was made with other filters')
    await expect400(
      `/api/v1/papers?updated_since=2000-01-01&topic=senescence&cursor=${feed}`,
      'cursor was made with other filters',
    )
    await expect400(`/api/v1/stories?updated_since=2000-01-01&cursor=${feed}`, 'cursor belongs to another endpoint')
    await expect400(`/api/v1/papers?cursor=${feed}`, 'cursor belongs to another endpoint')
    const list = await firstCursor('/api/v1/papers?min_relevance=2')
    await expect400(`/api/v1/papers?updated_since=2000-01-01&cursor=${list}`, 'cursor belongs to another endpoint')
    // limit may change
    expect((await call(`/api/v1/papers?updated_since=2000-01-01&limit=5&cursor=${feed}`)).response.status).toBe(200)
  })

  test('a resume_cursor older than 30 days has expired: 400 saying so', async () => {
    const issued = Date.now() - 31 * 86_400_000
    const old = encodeCursor(TEST_SECRET, 'papers-changes', { minRelevance: 2, updatedSince: '2000-01-01T00:00:00Z' }, [
      '1',
      '0',
      issued,
    ])
    await expect400(
      `/api/v1/papers?updated_since=2000-01-01&cursor=${old}`,
      `cursor expired: change-feed cursors are usable for 30 days (this one was issued ${new Date(issued).toISOString()}) and tombstones are kept 31`,
    )
    const recent = encodeCursor(
      TEST_SECRET,
      'papers-changes',
      { minRelevance: 2, updatedSince: '2000-01-01T00:00:00Z' },
      ['1', '0', Date.now() - 29 * 86_400_000],
    )
    expect((await call(`/api/v1/papers?updated_since=2000-01-01&cursor=${recent}`)).response.status).toBe(200)
  })

  test('a signed cursor of the wrong shape is refused, not run', async () => {
    for (const k of [
      ['1', 0, Date.now()],
      ['1); select 1; --', '0', Date.now()],
      ['1', '0'],
      ['99999999999999999999999', '0', Date.now()],
      ['99999999999999999999', '0', Date.now()],
      ['1', '9223372036854775808', Date.now()],
    ]) {
      const forged = encodeCursor(
        TEST_SECRET,
        'changes',
        { updatedSince: '0001-01-01T00:00:00Z', type: ['paper', 'story', 'claim'] },
        k as never,
      )
      await expect400(`/api/v1/changes?cursor=${forged}`, 'cursor is not a cursor this API issued')
    }
  })
})
