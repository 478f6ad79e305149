import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { cli } from '../support/cli'
import { freshDatabase, type TestDatabase } from '../support/database'
import { req, testApp } from '../support/app'

let demo: TestDatabase
let synthetic: TestDatabase
beforeAll(async () => {
  ;[demo, synthetic] = await Promise.all([freshDatabase(), freshDatabase()])
})
afterAll(async () => {
  await Promise.all([demo.close(), synthetic.close()])
})

const count = async (database: TestDatabase, table: string) =>
  (await database.rows<{ n: number }>(sql.raw(`select count(*)::int as n from ${table}`)))[0].n

describe('cli seed demo', () => {
  test('loads 2,000 papers into an empty database and prints a working member key last', async () => {
    const result = await cli(demo, 'seed', 'demo')
    expect(result.code).toBe(0)
    expect(result.stdout[0]).toStartWith('demo corpus loaded: 2000 papers')
    expect(await count(demo, 'papers')).toBe(2000)
    expect(await count(demo, 'stories')).toBeGreaterThan(50)
    expect(await count(demo, 'claims')).toBeGreaterThan(1000)
    expect(await count(demo, 'upvotes')).toBeGreaterThan(0)
    expect(await count(demo, 'rss_sources')).toBeGreaterThan(0)
    // Contradictions and gaps are computed with it, so /api/intelligence is not empty on first start.
    expect(await count(demo, 'contradiction_groups')).toBeGreaterThan(0)
    expect(await count(demo, 'knowledge_gaps')).toBeGreaterThan(0)
    expect(
      (
        await demo.rows<{ n: number }>(
          sql`select count(*)::int as n from job_runs where job = 'intelligence' and outcome = 'ok'`,
        )
      )[0].n,
    ).toBe(1)
    const key = result.stdout.at(-1)!
    const app = await testApp(demo)
    const response = await app.handle(req('/api/v1/papers?limit=5', { headers: { authorization: `Bearer ${key}` } }))
    expect(response.status).toBe(200)
    expect((await response.json()).data).toHaveLength(5)
    expect(response.headers.get('x-ratelimit-limit')).toBe('1000') // a member key
  }, 120_000) // 2,000 papers and the intelligence run: seconds alone, much longer on a loaded machine

  test('refuses a database that already holds papers', async () => {
    const result = await cli(demo, 'seed', 'demo')
    expect(result).toEqual({
      code: 1,
      stdout: [],
      stderr: ['error: the database already holds 2000 papers; the demo corpus loads only into an empty database'],
    })
  })
})

describe('cli seed synthetic', () => {
  test('loads exactly N papers, and another seed adds a corpus of its own', async () => {
    const first = await cli(synthetic, 'seed', 'synthetic', '--papers', '150', '--seed', '7')
    expect(first.code).toBe(0)
    expect(first.stdout[0]).toMatch(/^synthetic corpus loaded \(seed 7\): 150 papers/)
    expect(await count(synthetic, 'papers')).toBe(150)
    expect((await cli(synthetic, 'seed', 'synthetic', '--papers', '40', '--seed', '8')).code).toBe(0)
    expect(await count(synthetic, 'papers')).toBe(190)
  })

  test('the same seed again ends with a clear answer, and a larger run adds only what is missing', async () => {
    const again = await cli(synthetic, 'seed', 'synthetic', '--papers', '150', '--seed', '7')
    expect(again).toEqual({
      code: 0,
      stdout: ['synthetic corpus (seed 7) is already loaded: 150 papers; nothing to add'],
      stderr: [],
    })
    const more = await cli(synthetic, 'seed', 'synthetic', '--papers', '160', '--seed', '7')
    expect(more.code).toBe(0)
    expect(more.stdout[0]).toMatch(
      /^synthetic corpus loaded \(seed 7\): 10 papers, .*; 150 papers were already loaded by an earlier run$/,
    )
    expect(await count(synthetic, 'papers')).toBe(200)
  })

  test('papers lost from a corpus are loaded again with their stories, entities and claims', async () => {
    const before = {
      stories: await count(synthetic, 'stories'),
      links: await count(synthetic, 'paper_entities'),
      claims: await count(synthetic, 'claims'),
    }
    // The papers of seed 7 from the 101st on, as if the run that loaded them had died (their children go with them).
    await synthetic.rows(
      sql`delete from papers where id in (select id from papers where id like '%-107%' order by substring(id from 5) offset 100)`,
    )
    expect(await count(synthetic, 'papers')).toBe(140)
    const resumed = await cli(synthetic, 'seed', 'synthetic', '--papers', '160', '--seed', '7')
    expect(resumed.stdout[0]).toMatch(
      /^synthetic corpus loaded \(seed 7\): 60 papers, .*; 100 papers were already loaded by an earlier run$/,
    )
    expect({
      stories: await count(synthetic, 'stories'),
      links: await count(synthetic, 'paper_entities'),
      claims: await count(synthetic, 'claims'),
    }).toEqual(before)
  })

  test('refuses a seed whose paper ids another corpus already holds', async () => {
    const clash = await cli(synthetic, 'seed', 'synthetic', '--papers', '5', '--seed', '907') // 907 = 7 modulo 900
    expect(clash.code).toBe(1)
    expect(clash.stderr).toEqual([
      expect.stringMatching(
        /^error: paper (MED|PPR)-107\d+ is in the database but is not part of the corpus of seed 907: seeds equal modulo 900 share paper ids, so choose another --seed$/,
      ),
    ])
  })

  test.each([
    ['no --papers', [], 'error: --papers is required'],
    ['zero papers', ['--papers', '0'], 'error: --papers must be a whole number from 1'],
    ['a non-numeric seed', ['--papers', '5', '--seed', 'abc'], 'error: --seed must be a whole number'],
  ])('refuses %s', async (_name, flags, message) => {
    const result = await cli(synthetic, 'seed', 'synthetic', ...(flags as string[]))
    expect(result.code).toBe(2)
    expect(result.stderr).toHaveLength(1)
    expect(result.stderr[0]).toStartWith(message as string)
  })
})
