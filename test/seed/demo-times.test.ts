/**
 * The demo corpus ends today and is loaded during the day: none of its times may lie after the load (judged_at,
 * extracted_at, created_at and updated_at of papers, stories' published_at, claims' and upvotes' created_at).
 * Held at notAfter, the corpus is otherwise the one it was.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { generatePaper } from '../../src/seed/corpus'
import { seedDemo } from '../../src/seed/demo'
import { freshDatabase, type TestDatabase } from '../support/database'

describe('the demo corpus loaded today', () => {
  let database: TestDatabase
  let loadedAt = 0
  beforeAll(async () => {
    database = await freshDatabase()
    loadedAt = Date.now()
    await seedDemo(database)
  })
  afterAll(async () => {
    await database?.close()
  })

  test('has no time after its load', async () => {
    const [row] = await database.rows<Record<string, number>>(sql`select
      (select count(*)::int from papers
        where judged_at > now() or extracted_at > now() or created_at > now() or updated_at > now()) as papers,
      (select count(*)::int from stories where published_at > now()) as stories,
      (select count(*)::int from claims where created_at > now()) as claims,
      (select count(*)::int from upvotes where created_at > now()) as upvotes,
      (select count(*)::int from papers where indexed_date = (now() at time zone 'UTC')::date) as today`)
    expect(row).toEqual({ papers: 0, stories: 0, claims: 0, upvotes: 0, today: expect.any(Number) })
    expect(row.today).toBeGreaterThan(0) // the corpus still ends today
  }, 200_000)

  test('ends at the day it was loaded', async () => {
    const [row] = await database.rows<{ newest: string }>(sql`select max(indexed_date)::text as newest from papers`)
    expect(row.newest).toBe(new Date(loadedAt).toISOString().slice(0, 10))
  })
})

describe('a generated paper held at notAfter', () => {
  const options = { papers: 2_000, seed: 1, endDate: '2026-11-21', days: 90 }
  const notAfter = Date.parse('2026-11-21T01:00:00Z')

  test('has every time at or before it, and is otherwise the same paper', () => {
    let held = 0
    for (let index = 1_950; index < 2_000; index++) {
      const free = generatePaper(index, options)
      const bundle = generatePaper(index, { ...options, notAfter })
      const times = [
        bundle.paper.createdAt,
        bundle.paper.updatedAt,
        bundle.paper.judgedAt,
        bundle.paper.extractedAt,
        bundle.story?.publishedAt,
        ...bundle.claims.map((c) => c.createdAt),
      ].filter((t): t is string => Boolean(t))
      for (const t of times.slice(0, 5)) expect(Date.parse(t)).toBeLessThanOrEqual(notAfter)
      if (free.paper.judgedAt && Date.parse(free.paper.judgedAt) > notAfter) held++
      expect({ ...bundle.paper, createdAt: 0, updatedAt: 0, judgedAt: 0, extractedAt: 0 }).toEqual({
        ...free.paper,
        createdAt: 0,
        updatedAt: 0,
        judgedAt: 0,
        extractedAt: 0,
      })
    }
    expect(held).toBeGreaterThan(0) // some of the last day's papers were judged after 01:00
  })
})
