import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { migrateDatabase } from '../../src/db/migrate'

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(async () => {
  await database.close()
})

describe(`migrations on ${testDriver}`, () => {
  test('create every table of the data model', async () => {
    const rows = await database.rows<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
    )
    expect(rows.map((r) => r.table_name)).toEqual([
      'accounts',
      'api_keys',
      'article_analyses',
      'articles',
      'briefs',
      'change_feed',
      'claim_documents',
      'claim_facet_counts',
      'claim_facet_counts_pending',
      'claims',
      'contradiction_groups',
      'contradiction_pairs',
      'entities',
      'held_stories',
      'job_runs',
      'job_state',
      'judgement_versions',
      'knowledge_gaps',
      'login_failures',
      'paper_documents',
      'paper_entities',
      'paper_facet_counts',
      'paper_facet_counts_monthly',
      'paper_facet_counts_monthly_pending',
      'paper_facet_counts_pending',
      'paper_organism_counts',
      'paper_organism_counts_monthly',
      'paper_organism_counts_monthly_pending',
      'paper_organism_counts_pending',
      'paper_relation_counts',
      'paper_relation_counts_monthly',
      'paper_relation_counts_monthly_pending',
      'paper_relation_counts_pending',
      'papers',
      'prompt_versions',
      'prompts',
      'rate_limit_counters',
      'rss_sources',
      'search_outbox',
      'sessions',
      'stories',
      'upvotes',
      'withdrawn_papers',
    ])
  })

  test('are recorded so a second run changes nothing', async () => {
    const before = await database.rows<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)
    await migrateDatabase(database, database.url ?? undefined)
    const after = await database.rows<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)
    expect(before[0].n).toBeGreaterThan(0)
    expect(after[0].n).toBe(before[0].n)
  })

  test('are journalled in order of their time: drizzle applies only those newer than the last one a database has', async () => {
    // A migration written later but journalled with an earlier time would be skipped, without a word,
    // by every database that already has the one before it.
    const journal = JSON.parse(readFileSync(join(import.meta.dir, '../../drizzle/meta/_journal.json'), 'utf8')) as {
      entries: { idx: number; when: number; tag: string }[]
    }
    journal.entries.forEach((entry, i) => {
      expect(entry.idx).toBe(i)
      if (i > 0) expect(`${entry.tag} ${entry.when > journal.entries[i - 1].when}`).toBe(`${entry.tag} true`)
    })
  })

  test('create the keyset index for the default paper order', async () => {
    const rows = await database.rows<{ indexdef: string }>(
      sql`select indexdef from pg_indexes where indexname = 'papers_indexed_idx'`,
    )
    expect(rows[0].indexdef).toContain('(indexed_date DESC, id)')
  })
})
