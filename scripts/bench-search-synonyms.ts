/**
 * What searching an entity's other names costs (src/search/synonyms.ts), on PostgreSQL: the
 * same searches with the expansion and without it (PostgresSearch's `synonyms` option), alternating
 * query by query and round by round on one database, page 1, limit 25, default filters.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<corpus> bun scripts/bench-search-synonyms.ts [--rounds 4] [--reps 15] [--connections 4]
 *     [--before DIR]
 * Each measurement runs `reps` searches on each of `connections` connections at once (a loaded service
 * rather than one search alone), and reports p50 and p95 over every search of every round, the median
 * over rounds of each round's p95, and the matches each way (the expansion finds more papers where
 * the corpus uses the other names).
 * --before DIR also runs the expanded searches of another checkout's src/search/postgres.ts (DIR holds
 * its src/, e.g. `git archive <commit> src | tar -x -C DIR` and a node_modules link to this one's) on
 * the same connections, interleaved with this build's, and checks that both give the same pages.
 */
import { loadavg } from 'node:os'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../src/db/client'
import { migrateDatabase } from '../src/db/migrate'
import { PostgresSearch } from '../src/search/postgres'
import { expandQuery } from '../src/search/synonyms'
import { queryForms } from '../src/search/tiers'
import { numberOption, stringOption } from './bench/wrk'

const rounds = numberOption('rounds', 4)
const reps = numberOption('reps', 15)
const connections = numberOption('connections', 4)
const before = stringOption('before', '')
const url = process.env.DATABASE_URL
if (!url) throw new Error('set DATABASE_URL to the PostgreSQL database holding the benchmark corpus')
const database = await openDatabase({ kind: 'postgres', url, max: connections })
await migrateDatabase(database, url)
const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from papers`)

// The issue-4 queries (two of them name interventions: rapamycin, metformin) and names with other names.
const QUERIES = [
  'aging',
  'mice',
  'senescence',
  'rapamycin mice',
  '"dietary restriction"',
  'rapamycin OR metformin',
  'senescence -mice',
  'p16',
  'sirolimus',
  'NR',
  'CDKN2A senescence',
  'metformin',
]
const filters = { minRelevance: 2 }
type Search = Pick<PostgresSearch, 'search'>
const Before = before
  ? ((await import(`${before}/src/search/postgres.ts`)) as { PostgresSearch: new (db: unknown) => Search })
      .PostgresSearch
  : null
const searches: Record<string, Search> = {}
if (Before) searches.before = new Before(database.db)
searches.with = new PostgresSearch(database.db)
searches.without = new PostgresSearch(database.db, { synonyms: false })
type Way = 'with' | 'without' | 'before'
const WAYS = Object.keys(searches) as Way[]

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}

async function measure(way: Way, q: string): Promise<number[]> {
  const ms: number[] = []
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let i = 0; i < reps; i++) {
        const started = performance.now()
        await searches[way].search({ q, filters, limit: 25, after: null })
        ms.push(performance.now() - started)
      }
    }),
  )
  return ms
}

/** The first three pages, as ids, for checking that two builds rank alike. */
async function pages(way: Way, q: string): Promise<string[]> {
  const ids: string[] = []
  let after = null
  for (let page = 0; page < 3; page++) {
    const { hits } = await searches[way].search({ q, filters, limit: 25, after })
    ids.push(...hits.slice(0, 25).map((h) => h.id))
    if (hits.length <= 25) break
    const last = hits[24]
    after = { score: last.score, id: last.id, rank: last.rank, rankedBy: 'postgres' as const }
  }
  return ids
}

async function matches(way: Way, q: string): Promise<number> {
  const forms = queryForms(q, way === 'with' ? expandQuery(q) : [])
  const [{ count }] = await database.rows<{ count: number }>(sql`select count(*)::int as count from papers, (${forms}) f
    where search_vector @@ f.query and relevance >= 2`)
  return count
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')
console.log(
  `corpus: ${n.toLocaleString('en-US')} papers; ${rounds} rounds, ${connections} connections x ${reps} searches per query and way, alternating ${WAYS.join(', ')}; load average ${load()}`,
)
if (Before) {
  for (const q of QUERIES) {
    const [now, then] = [await pages('with', q), await pages('before', q)]
    if (JSON.stringify(now) !== JSON.stringify(then)) throw new Error(`${q}: this build and --before rank differently`)
  }
  console.log('the first 3 pages of every query are the same with this build and --before')
}
type Times = Record<Way, number[][]> // per round
const times = new Map(QUERIES.map((q) => [q, Object.fromEntries(WAYS.map((w) => [w, []])) as unknown as Times]))
for (const q of QUERIES) for (const way of WAYS) await measure(way, q) // warm the plans and caches
for (let round = 0; round < rounds; round++) {
  for (const q of QUERIES) {
    const order = WAYS.map((_, i) => WAYS[(i + round) % WAYS.length])
    for (const way of order) times.get(q)![way].push(await measure(way, q))
  }
  console.log(`round ${round + 1} done, load average ${load()}`)
}
const median = (values: number[]) => quantile(values, 0.5)
const p = (rows: number[][], q: number) => quantile(rows.flat(), q).toFixed(1)
const p95OfRounds = (rows: number[][]) => median(rows.map((r) => quantile(r, 0.95))).toFixed(1)
const rows: string[] = []
const all = Object.fromEntries(WAYS.map((w) => [w, [] as number[][]])) as unknown as Times
for (const q of QUERIES) {
  const t = times.get(q)!
  for (const w of WAYS)
    t[w].forEach((r, i) => {
      ;(all[w][i] ??= []).push(...r)
    })
  const expanded =
    expandQuery(q)
      .map((e) => e.text)
      .join(', ') || '-'
  rows.push(
    `| \`${q}\` | ${expanded} | ${(await matches('without', q)).toLocaleString('en-US')} → ${(await matches('with', q)).toLocaleString('en-US')} ` +
      `| ${WAYS.map((w) => p(t[w], 0.5)).join(' / ')} | ${WAYS.map((w) => p(t[w], 0.95)).join(' / ')} | ${WAYS.map((w) => p95OfRounds(t[w])).join(' / ')} |`,
  )
}
rows.push(
  `| all | | | ${WAYS.map((w) => p(all[w], 0.5)).join(' / ')} | ${WAYS.map((w) => p(all[w], 0.95)).join(' / ')} | ${WAYS.map((w) => p95OfRounds(all[w])).join(' / ')} |`,
)
const ways = WAYS.join(' / ')
console.log(
  `\n| query | names expanded | matches without → with | p50 ms ${ways} | p95 ms ${ways} | median of rounds' p95, ms |\n|---|---|---|---|---|---|\n${rows.join('\n')}`,
)
console.log(`load average at the end ${load()}`)
await database.close()
