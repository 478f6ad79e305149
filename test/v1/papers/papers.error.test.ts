import { beforeAll, describe, expect, test } from 'bun:test'
import { encodeCursor } from '../../../src/http/cursor'
import { expectInvalidParameter } from '../../support/expect'
import { TEST_SECRET, req, useTestApp } from '../../support/app'
import { bearer, insertPapers, paperRow } from '../../support/fixtures'

const api = useTestApp()

beforeAll(async () => {
  await insertPapers(api.database.db, [paperRow({ id: 'MED-1' }), paperRow({ id: 'MED-2' }), paperRow({ id: 'MED-3' })])
})

async function expect400(path: string, message: string) {
  await expectInvalidParameter(await api.app.handle(req(path, bearer(api.key))), message)
}

describe('GET /api/v1/papers refuses bad input with 400 invalid_parameter naming the parameter', () => {
  test.each([
    ['an unknown parameter', '?foo=1', 'unknown parameter "foo"'],
    ['a parameter in the wrong case', '?Limit=5', 'unknown parameter "Limit"'],
    ['a repeated parameter', '?topic=senescence&topic=glp-1', 'topic is given more than once'],
    ['limit 0', '?limit=0', 'limit must be an integer from 1 to 100 (got "0")'],
    ['limit 101', '?limit=101', 'limit must be an integer from 1 to 100'],
    ['a fractional limit', '?limit=2.5', 'limit must be an integer'],
    ['an empty limit', '?limit=', 'limit must be an integer'],
    ['a negative min_relevance', '?min_relevance=-1', 'min_relevance must be a number from 0 to 3'],
    ['min_relevance above 3', '?min_relevance=3.5', 'min_relevance must be a number from 0 to 3'],
    ['a non-numeric min_relevance', '?min_relevance=high', 'min_relevance must be a number'],
    ['min_relevance NaN', '?min_relevance=NaN', 'min_relevance must be a number'],
    ['min_relevance Infinity', '?min_relevance=Infinity', 'min_relevance must be a number'],
    ['an unknown topic', '?topic=senescence,aging', 'topic has unknown value "aging"'],
    ['an empty list item', '?study_type=animal,', 'study_type has unknown value ""'],
    ['an unknown study type', '?study_type=mouse', 'study_type has unknown value "mouse"'],
    ['preprint=yes', '?preprint=yes', 'preprint must be true or false (got "yes")'],
    ['preprint=1', '?preprint=1', 'preprint must be true or false'],
    ['a malformed date', '?since=2026-13-01', 'since must be a date'],
    ['a date that is not in the calendar', '?until=2026-02-30', 'until must be a date'],
    ['a timestamp not in the calendar', '?since=2026-02-30T10:00:00Z', 'since must be a date'],
    ['a date with no dashes', '?since=20261001', 'since must be a date'],
    ['year zero, which PostgreSQL does not have', '?since=0000-01-01', 'since must be a date'],
    ['a timestamp whose UTC date falls in year zero', '?until=0001-01-01T00:30:00%2B01:00', 'until must be a date'],
    ['a q over 500 characters', `?q=${'a'.repeat(501)}`, 'q must be at most 500 characters'],
    ['an empty q', '?q=', 'q must not be empty'],
    ['a q holding NUL, which PostgreSQL text cannot', '?q=klo%00tho', 'q must not contain the NUL character (%00)'],
    ['a cursor holding NUL', '?cursor=%00', 'cursor must not contain the NUL character'],
    ['a garbage cursor', '?cursor=abc', 'cursor is not a cursor this API issued'],
  ])('%s', async (_name, query, message) => {
    await expect400(`/api/v1/papers${query}`, message)
  })

  test('a forged cursor is refused', async () => {
    const forged = encodeCursor('another-secret-of-sufficient-length!!', 'papers', { minRelevance: 2 }, [
      '2026-10-01',
      'MED-1',
    ])
    await expect400(`/api/v1/papers?cursor=${forged}`, 'bad signature')
  })

  test('a cursor reused with other filters is refused, but another limit is fine', async () => {
    const first = await (await api.app.handle(req('/api/v1/papers?limit=1', bearer(api.key)))).json()
    const cursor = first.pagination.next_cursor
    await expect400(`/api/v1/papers?limit=1&topic=senescence&cursor=${cursor}`, 'cursor was made with other filters')
    await expect400(`/api/v1/papers?limit=1&min_relevance=1&cursor=${cursor}`, 'cursor was made with other filters')
    const other = await api.app.handle(req(`/api/v1/papers?limit=2&cursor=${cursor}`, bearer(api.key)))
    expect(other.status).toBe(200)
    expect((await other.json()).data.map((p: { id: string }) => p.id)).toEqual(['MED-2', 'MED-3'])
  })

  test('a cursor from another endpoint is refused', async () => {
    const foreign = encodeCursor(TEST_SECRET, 'claims', { minRelevance: 2 }, ['2026-10-01', 'MED-1'])
    await expect400(`/api/v1/papers?cursor=${foreign}`, 'cursor belongs to another endpoint')
  })

  test('a paper id takes no query parameters', async () => {
    await expect400('/api/v1/papers/MED-1?expand=all', 'unknown parameter "expand"; this endpoint takes fields')
  })
})
