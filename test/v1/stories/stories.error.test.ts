import { beforeAll, describe, expect, test } from 'bun:test'
import { encodeCursor } from '../../../src/http/cursor'
import { expectInvalidParameter } from '../../support/expect'
import { TEST_SECRET, req, useTestApp } from '../../support/app'
import { bearer, insertPapers, insertStory, paperRow } from '../../support/fixtures'

const api = useTestApp()

beforeAll(async () => {
  await insertPapers(api.database.db, [
    paperRow({ id: 'MED-1', topic: 'senescence' }),
    paperRow({ id: 'MED-2' }),
    paperRow({ id: 'MED-3' }),
  ])
  for (const id of ['MED-1', 'MED-2', 'MED-3']) await insertStory(api.database.db, id)
})

const call = (path: string) => api.app.handle(req(path, bearer(api.key)))

async function expect400(path: string, message: string) {
  await expectInvalidParameter(await call(path), message)
}

describe('GET /api/v1/stories refuses bad input with 400 invalid_parameter naming the parameter', () => {
  test.each([
    [
      'an unknown parameter',
      '?foo=1',
      'unknown parameter "foo"; this endpoint takes since, until, topic, study_type, cursor, limit',
    ],
    ['a /papers parameter', '?min_relevance=2', 'unknown parameter "min_relevance"'],
    ['a /papers q', '?q=rapamycin', 'unknown parameter "q"'],
    ['a parameter in the wrong case', '?Topic=senescence', 'unknown parameter "Topic"'],
    ['a repeated parameter', '?since=2026-10-01&since=2026-10-02', 'since is given more than once'],
    ['limit 0', '?limit=0', 'limit must be an integer from 1 to 100 (got "0")'],
    ['limit 101', '?limit=101', 'limit must be an integer from 1 to 100'],
    ['a negative limit', '?limit=-1', 'limit must be an integer'],
    ['a fractional limit', '?limit=2.5', 'limit must be an integer'],
    ['an empty limit', '?limit=', 'limit must be an integer'],
    ['an unknown topic', '?topic=senescence,aging', 'topic has unknown value "aging"'],
    ['a topic in the wrong case', '?topic=Senescence', 'topic has unknown value "Senescence"'],
    ['an empty topic', '?topic=', 'topic has unknown value ""'],
    ['an empty list item', '?study_type=animal,', 'study_type has unknown value ""'],
    ['an unknown study type', '?study_type=mouse,rat', 'study_type has unknown values "mouse", "rat"'],
    ['a malformed date', '?since=2026-13-01', 'since must be a date'],
    ['a date that is not in the calendar', '?until=2026-02-30', 'until must be a date'],
    ['a timestamp not in the calendar', '?since=2026-02-30T10:00:00Z', 'since must be a date'],
    ['a timestamp without an offset', '?since=2026-10-01T10:00:00', 'since must be a date'],
    ['a date with no dashes', '?since=20261001', 'since must be a date'],
    ['an empty date', '?until=', 'until must be a date'],
    ['a garbage cursor', '?cursor=abc', 'cursor is not a cursor this API issued'],
    ['an empty cursor', '?cursor=', 'cursor must not be empty'],
  ])('%s', async (_name, query, message) => {
    await expect400(`/api/v1/stories${query}`, message)
  })

  test('a forged cursor is refused', async () => {
    const forged = encodeCursor('another-secret-of-sufficient-length!!', 'stories', {}, [
      '2026-10-03T08:00:00.000000Z',
      'MED-1',
    ])
    await expect400(`/api/v1/stories?cursor=${forged}`, 'bad signature')
  })

  test('a cursor from another endpoint is refused', async () => {
    const papersCursor = encodeCursor(TEST_SECRET, 'papers', {}, ['2026-10-02', 'MED-1'])
    await expect400(`/api/v1/stories?cursor=${papersCursor}`, 'cursor belongs to another endpoint')
  })

  test('a signed cursor holding something other than a position is refused', async () => {
    const odd = encodeCursor(TEST_SECRET, 'stories', {}, [1, 2])
    await expect400(`/api/v1/stories?cursor=${odd}`, 'cursor is not a cursor this API issued')
  })

  test('a cursor reused with other filters is refused, but another limit is fine', async () => {
    const first = await (await call('/api/v1/stories?limit=1&since=2026-10-01')).json()
    const cursor = first.pagination.next_cursor
    expect(cursor).not.toBeNull()
    await expect400(`/api/v1/stories?limit=1&cursor=${cursor}`, 'cursor was made with other filters')
    await expect400(`/api/v1/stories?limit=1&since=2026-10-02&cursor=${cursor}`, 'cursor was made with other filters')
    await expect400(
      `/api/v1/stories?limit=1&since=2026-10-01&topic=senescence&cursor=${cursor}`,
      'cursor was made with other filters',
    )
    await expect400(
      `/api/v1/stories?limit=1&since=2026-10-01&study_type=animal&cursor=${cursor}`,
      'cursor was made with other filters',
    )
    const other = await call(`/api/v1/stories?limit=5&since=2026-10-01&cursor=${cursor}`)
    expect(other.status).toBe(200)
    expect((await other.json()).data.map((s: { paper_id: string }) => s.paper_id)).toEqual(['MED-2', 'MED-3'])
  })

  test('a list filter in another order or with duplicates keeps the cursor valid', async () => {
    const first = await (await call('/api/v1/stories?limit=1&topic=senescence,mtor-rapamycin')).json()
    const next = await call(
      `/api/v1/stories?limit=1&topic=mtor-rapamycin,senescence,senescence&cursor=${first.pagination.next_cursor}`,
    )
    expect(next.status).toBe(200)
    expect((await next.json()).data.map((s: { paper_id: string }) => s.paper_id)).toEqual(['MED-2'])
  })

  test('a timestamp cut to the same date is the same filter for the cursor', async () => {
    const first = await (await call('/api/v1/stories?limit=1&since=2026-10-01')).json()
    const next = await call(`/api/v1/stories?limit=1&since=2026-10-01T12:00:00Z&cursor=${first.pagination.next_cursor}`)
    expect(next.status).toBe(200)
  })
})

describe('GET /api/v1/stories needs a key', () => {
  test('no key is 401 missing_key, without rate-limit headers', async () => {
    const response = await api.app.handle(req('/api/v1/stories'))
    expect(response.status).toBe(401)
    expect((await response.json()).error.code).toBe('missing_key')
    expect(response.headers.get('x-ratelimit-limit')).toBeNull()
  })
})
