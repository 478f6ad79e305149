/**
 * Issue 18's additions, measured in-process (app.handle, no network) against PostgreSQL holding a
 * synthetic corpus, with the response cache off so every request does its database work:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/geroscope_bench_seed bun scripts/bench-api-extras.ts [--rounds 7] [--per-round 20] [--only facets|batch|pages|changes]
 *   (BENCH_MATCH=text keeps only the scenarios whose name contains it)
 * Inputs are drawn from the whole corpus: batch ids from a 50,000-paper sample of every part of it, and
 * for the `... with filters` scenarios a different random filter set per request (topics, study types,
 * preprint, min_relevance, date windows within the corpus's dates; claims' relations and organisms).
 * The `(live, ...)` scenarios take the filters the precomputed counts do not hold (q, min_relevance off
 * the half-point grain, a claim subject), so they show the bounded live count and the estimate above it.
 * Load the corpus first with `bun run cli seed synthetic --papers N`. Scenarios are interleaved round by
 * round (so a change in machine load hits them all alike); each prints the median and p95 of its request
 * times and requests per second of one sequential client. The load average is printed before and after.
 */
import { loadavg } from 'node:os'
import { sql } from 'drizzle-orm'
import { buildApp } from '../src/app'
import { parseConfig } from '../src/config'
import { openDatabase } from '../src/db/client'
import { KeyUsageRecorder } from '../src/accounts/key-last-used'
import { MemoryRateLimitStore } from '../src/rate-limit/memory-store'
import { benchKeys } from './bench/keys'
import { numberOption } from './bench/wrk'
import { STUDY_TYPES, TOPICS } from '../src/taxonomy'
import { claimFacets } from '../src/modules/v1/facets/claims'
import { paperFacets } from '../src/modules/v1/facets/papers'
import type { GroupBy } from '../src/modules/v1/facets/params'

const rounds = numberOption('rounds', 7)
const only = (() => {
  const i = process.argv.indexOf('--only')
  return i === -1 ? null : process.argv[i + 1]
})()
const perRound = numberOption('per-round', 20)
const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) throw new Error('set DATABASE_URL to the PostgreSQL database holding the benchmark corpus')

const database = await openDatabase({ kind: 'postgres', url: databaseUrl, max: 4 })
const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from papers`)
const sample = await database.rows<{ id: string; doi: string | null }>(
  sql`select id, doi from papers tablesample system (5) repeatable (18) limit 50000`,
)
shuffle(sample)
const [{ first, last }] = await database.rows<{ first: string; last: string }>(
  sql`select min(indexed_date)::text as first, max(indexed_date)::text as last from papers`,
)
const relations = (
  await database.rows<{ relation: string }>(sql`select distinct relation from claim_facet_counts`)
).map((r) => r.relation)
const organisms = ['mouse', 'mice', 'human', 'elegans', 'rat', 'yeast', 'drosophila', 'Mus musculus']
const subjects = ['rapamycin', 'metformin', 'NAD', 'senolytic', 'sirtuin', 'mTOR', 'p16']
const words = [
  'rapamycin',
  'senescence',
  'mice',
  'mitochondrial',
  'lifespan',
  'autophagy',
  '"caloric restriction"',
  'clock',
]
const keys = await benchKeys(database.db, 20)
const config = {
  ...parseConfig({ PUBLIC_BASE_URL: 'https://geroscope.test', RESPONSE_CACHE_MB: '0' }),
  appSecret: 'bench-secret-that-is-long-enough-0123456789',
}
const limits = await MemoryRateLimitStore.open(database, new Date())
const app = buildApp({
  config,
  database,
  limits,
  keyUsage: new KeyUsageRecorder(database, { flushEveryMs: 0 }),
  responseCache: null,
})

/** A small seeded generator, so two runs draw the same inputs. */
function random(seed: number) {
  let x = seed >>> 0
  return () => (x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0) / 2 ** 32
}
function shuffle<T>(items: T[]) {
  const r = random(7)
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1))
    ;[items[i], items[j]] = [items[j], items[i]]
  }
}
const pick = <T>(r: () => number, items: readonly T[]) => items[Math.floor(r() * items.length)]
const day = (offset: number) => new Date(Date.parse(first) + offset * 86_400_000).toISOString().slice(0, 10)
const spanDays = Math.round((Date.parse(last) - Date.parse(first)) / 86_400_000)
/** Random /papers filters the precomputed counts hold, one set per request number. */
function paperFilters(i: number): string {
  const r = random(1000 + i)
  const q: string[] = []
  if (r() < 0.5) q.push(`topic=${pick(r, TOPICS)}${r() < 0.3 ? `,${pick(r, TOPICS)}` : ''}`)
  if (r() < 0.4) q.push(`study_type=${pick(r, STUDY_TYPES)}`)
  if (r() < 0.3) q.push(`preprint=${r() < 0.5}`)
  if (r() < 0.6) q.push(`min_relevance=${pick(r, [0, 1, 1.5, 2, 2.5, 3])}`)
  if (r() < 0.5) {
    const a = Math.floor(r() * spanDays)
    q.push(`since=${day(a)}`, `until=${day(a + Math.floor(r() * (spanDays - a + 1)))}`)
  }
  return q.length ? q.join('&') : 'topic=senescence'
}
function claimFilters(i: number): string {
  const r = random(2000 + i)
  const q: string[] = []
  if (r() < 0.6) q.push(`relation=${pick(r, relations)}`)
  if (r() < 0.6 || q.length === 0) q.push(`organism=${encodeURIComponent(pick(r, organisms))}`)
  return q.join('&')
}

let k = 0
const key = () => keys[k++ % keys.length]
const batchIds = (i: number) =>
  Array.from({ length: 500 }, (_, j) => {
    const row = sample[(i * 500 + j) % sample.length]
    return j % 5 === 0 && row.doi ? `doi:${row.doi}` : row.id
  })

type Scenario = { name: string; run: (i: number) => Promise<Response> }
const get = (path: string, headers: Record<string, string> = {}) =>
  app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key()}`, ...headers } }))
const DIMENSIONS = ['topic', 'study_type', 'preprint', 'indexed_month', 'organism', 'relation']
const groups: Scenario[] = DIMENSIONS.flatMap((by) => [
  { name: `papers group_by=${by}`, run: () => get(`/api/v1/papers?group_by=${by}`) },
  {
    name: `papers group_by=${by} with filters`,
    run: (i: number) => get(`/api/v1/papers?group_by=${by}&${paperFilters(i)}`),
  },
  { name: `claims group_by=${by}`, run: () => get(`/api/v1/claims?group_by=${by}`) },
  {
    name: `claims group_by=${by} with filters`,
    run: (i: number) => get(`/api/v1/claims?group_by=${by}&${claimFilters(i)}`),
  },
])
// The count statements alone (what count= and group_by= add to a request, without the list page beside
// them): a claims filter matching few claims makes the list page itself walk the claims, which is the
// list's cost, not the counts'.
const direct = (answer: Promise<unknown>) => answer.then((a) => new Response(JSON.stringify(a)))
const claimFilterObject = (i: number) =>
  Object.fromEntries(new URLSearchParams(claimFilters(i))) as { relation?: string; organism?: string }
const paperFilterObject = (i: number) => {
  const p = new URLSearchParams(paperFilters(i))
  const list = (name: string) => (p.get(name) ? p.get(name)!.split(',') : undefined)
  return {
    minRelevance: Number(p.get('min_relevance') ?? 2),
    topic: list('topic'),
    studyType: list('study_type'),
    preprint: p.has('preprint') ? p.get('preprint') === 'true' : undefined,
    since: p.get('since') ?? undefined,
    until: p.get('until') ?? undefined,
  }
}
const directGroups: Scenario[] = DIMENSIONS.flatMap((by) => [
  {
    name: `papers group_by=${by} with filters, counts only`,
    run: (i: number) => direct(paperFacets(database.db, paperFilterObject(i), { group_by: by as GroupBy })),
  },
  {
    name: `claims group_by=${by} with filters, counts only`,
    run: (i: number) => direct(claimFacets(database.db, claimFilterObject(i), { group_by: by as GroupBy })),
  },
])
const allScenarios: (Scenario & { kind: 'batch' | 'pages' | 'facets' | 'changes' })[] = [
  {
    kind: 'batch',
    name: 'batch 500 (POST, 1 in 5 by DOI)',
    run: (i) =>
      app.handle(
        new Request('http://localhost/api/v1/papers/batch', {
          method: 'POST',
          headers: { authorization: `Bearer ${key()}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ids: batchIds(i) }),
        }),
      ),
  },
  { kind: 'pages', name: 'papers full page (limit 100)', run: () => get('/api/v1/papers?limit=100') },
  {
    kind: 'pages',
    name: 'papers fields=id,title (limit 100)',
    run: () => get('/api/v1/papers?limit=100&fields=id,title'),
  },
  {
    kind: 'pages',
    name: 'papers with q, full page (limit 100)',
    run: (i) => get(`/api/v1/papers?limit=100&q=${encodeURIComponent(words[i % words.length])}`),
  },
  {
    kind: 'pages',
    name: 'papers with q, fields=id,title (limit 100)',
    run: (i) => get(`/api/v1/papers?limit=100&fields=id,title&q=${encodeURIComponent(words[i % words.length])}`),
  },
  {
    kind: 'pages',
    name: 'papers full page, br',
    run: () => get('/api/v1/papers?limit=100', { 'accept-encoding': 'br' }),
  },
  { kind: 'facets', name: 'papers count=true', run: () => get('/api/v1/papers?count=true') },
  {
    kind: 'facets',
    name: 'papers count=true with filters',
    run: (i) => get(`/api/v1/papers?count=true&${paperFilters(i)}`),
  },
  ...groups.map((g) => ({ ...g, kind: 'facets' as const })),
  ...directGroups.map((g) => ({ ...g, kind: 'facets' as const })),
  { kind: 'facets', name: 'claims count=true', run: () => get('/api/v1/claims?count=true') },
  {
    kind: 'facets',
    name: 'claims count=true with filters',
    run: (i) => get(`/api/v1/claims?count=true&${claimFilters(i)}`),
  },
  {
    kind: 'facets',
    name: 'papers count+group_by=topic (live, q)',
    run: (i) => get(`/api/v1/papers?count=true&group_by=topic&q=${encodeURIComponent(words[i % words.length])}`),
  },
  {
    kind: 'facets',
    name: 'papers count+group_by=organism (live, min_relevance=2.25)',
    run: (i) =>
      get(
        `/api/v1/papers?count=true&group_by=organism&min_relevance=2.25&${paperFilters(i)
          .split('&')
          .filter((f) => !f.startsWith('min_relevance='))
          .join('&')}`,
      ),
  },
  // The change feed at this size: a mirror's first page, one from a recent time, and the bare feed.
  {
    kind: 'changes',
    name: 'papers?updated_since (first page of a full sync, limit 100)',
    run: () => get('/api/v1/papers?updated_since=2000-01-01T00:00:00Z&min_relevance=0&limit=100'),
  },
  {
    kind: 'changes',
    name: 'claims?updated_since (first page of a full sync, limit 100)',
    run: () => get('/api/v1/claims?updated_since=2000-01-01T00:00:00Z&limit=100'),
  },
  {
    kind: 'changes',
    name: 'papers?updated_since=an hour ago (limit 100)',
    run: () =>
      get(`/api/v1/papers?updated_since=${new Date(Date.now() - 3_600_000).toISOString()}&min_relevance=0&limit=100`),
  },
  { kind: 'changes', name: 'changes (first page, limit 100)', run: () => get('/api/v1/changes?limit=100') },
  // The same request's two halves apart: the list page alone, and the counts alone.
  {
    kind: 'facets',
    name: 'papers page alone (min_relevance=2.25)',
    run: (i) =>
      get(
        `/api/v1/papers?min_relevance=2.25&${paperFilters(i)
          .split('&')
          .filter((f) => !f.startsWith('min_relevance='))
          .join('&')}`,
      ),
  },
  {
    kind: 'facets',
    name: 'papers count+group_by=organism (live, min_relevance=2.25), counts only',
    run: (i) =>
      direct(
        paperFacets(
          database.db,
          { ...paperFilterObject(i), minRelevance: 2.25 },
          { count: true, group_by: 'organism' },
        ),
      ),
  },
  {
    kind: 'facets',
    name: 'claims count+group_by=relation (live, subject)',
    run: (i) =>
      get(`/api/v1/claims?count=true&group_by=relation&subject=${encodeURIComponent(subjects[i % subjects.length])}`),
  },
]
const match = process.env.BENCH_MATCH
const scenarios: Scenario[] = allScenarios.filter(
  (s) => (!only || s.kind === only) && (!match || s.name.includes(match)),
)

const times = new Map<string, number[]>(scenarios.map((s) => [s.name, []]))
const bytes = new Map<string, number>()
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
console.log(
  `corpus: ${n.toLocaleString('en-US')} papers; ${rounds} rounds x ${perRound} requests per scenario; load average before: ${load()}`,
)
for (let round = 0; round < rounds; round++) {
  for (const s of scenarios) {
    for (let i = 0; i < perRound; i++) {
      const start = performance.now()
      const response = await s.run(round * perRound + i)
      const body = new Uint8Array(await response.arrayBuffer())
      times.get(s.name)!.push(performance.now() - start)
      if (response.status !== 200)
        throw new Error(`${s.name}: ${response.status} ${new TextDecoder().decode(body).slice(0, 200)}`)
      bytes.set(s.name, body.byteLength)
    }
  }
}
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]
console.log(`load average after: ${load()}`)
console.log('| scenario | median ms | p95 ms | req/s (1 client) | answer bytes (last) |')
console.log('|---|---|---|---|---|')
for (const s of scenarios) {
  const t = times.get(s.name)!
  const median = quantile(t, 0.5)
  console.log(
    `| ${s.name} | ${median.toFixed(1)} | ${quantile(t, 0.95).toFixed(1)} | ${(1000 / median).toFixed(0)} | ${bytes.get(s.name)!.toLocaleString('en-US')} |`,
  )
}
await limits.close()
await database.close()
process.exit(0)
