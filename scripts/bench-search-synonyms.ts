/**
 * What searching an entity's other names costs (src/search/synonyms.ts), on PostgreSQL: the
 * same searches with the expansion and without it (PostgresSearch's `synonyms` option), alternating
 * query by query and round by round on one database, page 1, limit 25, default filters.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<corpus> bun scripts/bench-search-synonyms.ts [--rounds 4] [--reps 15] [--connections 4]
 * Each measurement runs `reps` searches on each of `connections` connections at once (a loaded service
 * rather than one search alone), and reports p50 and p95 over every search of every round, and the
 * matches each way (the expansion finds more papers where the corpus uses the other names).
 */
import { sql } from 'drizzle-orm'
import { openDatabase } from '../src/db/client'
import { migrateDatabase } from '../src/db/migrate'
import { PostgresSearch } from '../src/search/postgres'
import { expandQuery } from '../src/search/synonyms'
import { queryForms } from '../src/search/tiers'
import { numberOption } from './bench/wrk'

const rounds = numberOption('rounds', 4)
const reps = numberOption('reps', 15)
const connections = numberOption('connections', 4)
const url = process.env.DATABASE_URL
if (!url) throw new Error('set DATABASE_URL to the PostgreSQL database holding the benchmark corpus')
const database = await openDatabase({ kind: 'postgres', url, max: connections })
await migrateDatabase(database, url)
const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from papers`)

// The issue-4 queries (two of them name interventions: rapamycin, metformin) and names with other names.
const QUERIES = ['aging', 'mice', 'senescence', 'rapamycin mice', '"dietary restriction"', 'rapamycin OR metformin', 'senescence -mice',
  'p16', 'sirolimus', 'NR', 'CDKN2A senescence', 'metformin']
const filters = { minRelevance: 2 }
const searches = { with: new PostgresSearch(database.db), without: new PostgresSearch(database.db, { synonyms: false }) }
type Way = keyof typeof searches

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}

async function measure(way: Way, q: string): Promise<number[]> {
  const ms: number[] = []
  await Promise.all(Array.from({ length: connections }, async () => {
    for (let i = 0; i < reps; i++) {
      const started = performance.now()
      await searches[way].search({ q, filters, limit: 25, after: null })
      ms.push(performance.now() - started)
    }
  }))
  return ms
}

async function matches(way: Way, q: string): Promise<number> {
  const forms = queryForms(q, way === 'with' ? expandQuery(q) : [])
  const [{ count }] = await database.rows<{ count: number }>(sql`select count(*)::int as count from papers, (${forms}) f
    where search_vector @@ f.query and relevance >= 2`)
  return count
}

console.log(`corpus: ${n.toLocaleString('en-US')} papers; ${rounds} rounds, ${connections} connections x ${reps} searches per query and way, alternating`)
const times = new Map(QUERIES.map((q) => [q, { with: [] as number[], without: [] as number[] }]))
for (const q of QUERIES) await measure('with', q) // warm both plans and caches
for (let round = 0; round < rounds; round++) {
  for (const q of QUERIES) {
    const order: Way[] = round % 2 === 0 ? ['with', 'without'] : ['without', 'with']
    for (const way of order) times.get(q)![way].push(...await measure(way, q))
  }
  console.log(`round ${round + 1} done`)
}
const rows: string[] = []
const all = { with: [] as number[], without: [] as number[] }
for (const q of QUERIES) {
  const t = times.get(q)!
  all.with.push(...t.with)
  all.without.push(...t.without)
  const expanded = expandQuery(q).map((e) => e.text).join(', ') || '-'
  rows.push(`| \`${q}\` | ${expanded} | ${(await matches('without', q)).toLocaleString('en-US')} → ${(await matches('with', q)).toLocaleString('en-US')} `
    + `| ${quantile(t.without, 0.5).toFixed(1)} / ${quantile(t.with, 0.5).toFixed(1)} | ${quantile(t.without, 0.95).toFixed(1)} / ${quantile(t.with, 0.95).toFixed(1)} |`)
}
rows.push(`| all | | | ${quantile(all.without, 0.5).toFixed(1)} / ${quantile(all.with, 0.5).toFixed(1)} | ${quantile(all.without, 0.95).toFixed(1)} / ${quantile(all.with, 0.95).toFixed(1)} |`)
console.log(`\n| query | names expanded | matches without → with | p50 ms without / with | p95 ms without / with |\n|---|---|---|---|---|\n${rows.join('\n')}`)
await database.close()
