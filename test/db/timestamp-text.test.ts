/**
 * Prepared statements read timestamps as PostgreSQL's text; the API writes them as toISOString()
 * does. isoTimestamp rewrites the text without a Date: it must give toISOString()'s very bytes for
 * every text PostgreSQL (or PGlite) writes, in a UTC session and in any other.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { dateOf, isoTimestamp, preparedStatement } from '../../src/queries/prepared'
import { freshDatabase, type TestDatabase } from '../support/database'

const viaDate = (text: string) => new Date(text).toISOString()

const instants = [
  '2026-11-24 02:30:00+00',
  '2026-11-24 02:30:00.5+00',
  '2026-11-24 02:30:00.12+00',
  '2026-11-24 02:30:00.123+00',
  '2026-11-24 02:30:00.1234+00',
  '2026-11-24 02:30:00.999999+00',
  '2026-11-24 23:59:59.9995+00',
  '1970-01-01 00:00:00+00',
  '2000-02-29 12:00:00.000001+00',
  '1000-06-01 00:00:00+00',
  '9999-12-31 23:59:59.999999+00',
  '1969-12-31 23:59:59.999+00',
]

describe('isoTimestamp', () => {
  test("gives toISOString()'s text for PostgreSQL's text in a UTC session (milliseconds truncated)", () => {
    for (const text of instants) expect({ text, iso: isoTimestamp(text) }).toEqual({ text, iso: viaDate(text) })
  })

  test('other forms go through Date: another zone, an offset with minutes, a Date itself', () => {
    for (const text of [
      '2026-11-24 03:30:00.25+01',
      '2026-11-24 08:00:00.5+05:30',
      '2026-11-23 21:30:00-05',
      '2026-11-24T02:30:00.123Z',
    ]) {
      expect({ text, iso: isoTimestamp(text) }).toEqual({ text, iso: viaDate(text) })
    }
    const date = new Date('2026-11-24T02:30:00.123Z')
    expect(isoTimestamp(date)).toBe('2026-11-24T02:30:00.123Z')
    expect(dateOf(date)).toBe(date)
    expect(dateOf('2026-11-24 02:30:00.123456+00').getTime()).toBe(date.getTime())
  })

  test('a year before 1000 keeps its digits (Date parsing read 0099 as 1999)', () => {
    expect(isoTimestamp('0099-06-01 00:00:00.25+00')).toBe('0099-06-01T00:00:00.250Z')
  })

  test('text no Date can read still fails as it did', () => {
    expect(() => isoTimestamp('infinity')).toThrow(RangeError)
  })
})

describe("isoTimestamp on the database's own text", () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await freshDatabase()
  })
  afterAll(async () => {
    await database.close()
  })

  const asText = preparedStatement<{ text: string }>(
    `select (t::timestamp at time zone 'UTC')::timestamptz::text as text from unnest($?::text[]) as t`,
  )

  test("every instant PostgreSQL writes as text, in the session's zone and in others, comes out as toISOString() writes it", async () => {
    const values = instants.map((t) => t.replace('+00', ''))
    const rows = await asText(database.db, [values])
    expect(rows.length).toBe(instants.length)
    for (const { text } of rows) expect({ text, iso: isoTimestamp(text) }).toEqual({ text, iso: viaDate(text) })
    for (const zone of ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata']) {
      const text = await database.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local time zone '${zone}'`))
        const result = await tx.execute(sql`select '2026-11-24 02:30:00.123456+00'::timestamptz::text as text`)
        const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { text: string }[]
        return rows[0].text
      })
      expect(text).not.toEndWith('+00')
      expect({ zone, iso: isoTimestamp(text) }).toEqual({ zone, iso: '2026-11-24T02:30:00.123Z' })
    }
  })
})
