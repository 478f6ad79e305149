/**
 * Data API throughput, latency and CPU per request (issues 3 and 15) against PostgreSQL holding the synthetic corpus:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/geroscope_bench_seed bun scripts/bench-api.ts \
 *     [--cache off|on|both] [--before DIR] [--runs 3] [--seconds 10] [--soak-seconds 0] [--only name,name] [--no-pgbench] [--port N]
 *     [--accept-encoding br|gzip] [--plain]
 * Load the corpus first with `bun run cli seed synthetic --papers 1000000`. Needs wrk and pgbench
 * (apt-get install wrk postgresql-client).
 *
 * Starts the real service (WORKERS=off) once per cache mode (RESPONSE_CACHE_MB=0 for "off"), 32
 * connections from wrk on the same machine, 3,000 pro keys in rotation. Paper ids are drawn from the
 * whole corpus (up to 100,000, shuffled) and entity keys from every entity a paper involves, so with
 * the cache off nearly every answer is computed. Rounds are interleaved: each round runs every
 * scenario in every mode, then pgbench on the statements the service sends for that scenario
 * (captured in process for 64 of its paths: each is prepared once per pgbench connection) at the same concurrency: the database's own ceiling.
 * --before DIR also runs DIR's service (another checkout, e.g. the main branch) with the cache off, in
 * the same rounds, so a change is compared with what it replaces under the same load.
 * --plain also runs the plain implementation issue 15 measured the service against (scripts/bench/plain-server.mjs:
 * Node's http and postgres.js, one statement per request writing the JSON in PostgreSQL) in the same rounds, for the
 * scenarios it serves (paper, papers, papers-100, claims, stories, papers-page-400), after checking that its answers
 * parse to the service's; the summary's last column is the service's req/s over the plain implementation's.
 * Per run: req/s, p50/p99, CPU per request of the service process and of its PostgreSQL backends
 * (from /proc), and the load average. The summary gives the median of the runs of each figure.
 * --accept-encoding sends that header with every request, as browsers and most HTTP libraries do, so
 * answers are compressed (per request when they are computed); without it answers go uncompressed.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../src/db/client'
import { OPEN_LICENSES, STUDY_TYPES, STUDY_TYPE_LABELS, TOPICS } from '../src/taxonomy'
import { captureStatements, pgbench, pgbenchScript, type Captured } from './bench/ceiling'
import { backendPids, cpuMeter, loadAverage } from './bench/cpu'
import { benchKeys } from './bench/keys'
import { median, startPlainServer, startServer, type BenchServer } from './bench/server'
import { checkWrk, numberOption, wrk, type WrkResult } from './bench/wrk'

const runs = numberOption('runs', 3)
const seconds = numberOption('seconds', 10)
const soakSeconds = numberOption('soak-seconds', 0)
const CONNECTIONS = 32
const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : undefined
}
const only = option('only')?.split(',') ?? null
const cacheOption = option('cache') ?? 'both'
if (!['on', 'off', 'both'].includes(cacheOption)) throw new Error('--cache must be on, off or both')
const before = option('before')
const acceptEncoding = option('accept-encoding') // e.g. br: answers compressed, as most clients ask for them
type Mode = 'off' | 'on' | 'before' | 'plain'
const plain = process.argv.includes('--plain')
const modes = [
  ...(cacheOption === 'both' ? ['off', 'on'] : [cacheOption]),
  ...(before ? ['before'] : []),
  ...(plain ? ['plain'] : []),
] as Mode[]
/** The scenarios the plain implementation serves: those issue 15's table compared. */
const PLAIN_SCENARIOS = new Set(['paper', 'papers', 'papers-100', 'claims', 'stories', 'papers-page-400'])
const withPgbench = !process.argv.includes('--no-pgbench') && modes.includes('off')

const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) throw new Error('set DATABASE_URL to the PostgreSQL database holding the benchmark corpus')
checkWrk()
if (withPgbench && !Bun.which('pgbench')) throw new Error('pgbench is not installed: apt-get install postgresql-client')

const shuffle = <T>(values: T[]) => {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[values[i], values[j]] = [values[j], values[i]]
  }
  return values
}

const database = await openDatabase({ kind: 'postgres', url: databaseUrl, max: 2 })
const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from papers`)
console.log(
  `corpus: ${n.toLocaleString('en-US')} papers; cache ${modes.join(' and ')}; ${runs} interleaved rounds of ${seconds} s per scenario, ${CONNECTIONS} connections`,
)
console.log(
  `load average at start: ${loadAverage()}${acceptEncoding ? `; every request sends Accept-Encoding: ${acceptEncoding}` : ''}`,
)
const keys = await benchKeys(database.db, 3000)
// Bernoulli sampling reads every page: ids from the whole corpus, not from a few blocks.
const percent = Math.min(100, (100_000 / Math.max(n, 1)) * 100)
const ids = shuffle(
  (
    await database.rows<{ id: string }>(
      sql`select id from papers tablesample bernoulli (${sql.raw(percent.toFixed(4))})`,
    )
  ).map((r) => r.id),
)
const entityPaths = shuffle(
  (await database.rows<{ type: string; key: string }>(sql`select type, key from entities where paper_count > 0`)).map(
    (e) => `/api/v1/entities/${encodeURIComponent(e.type)}/${encodeURIComponent(e.key)}`,
  ),
).slice(0, 20_000)
// /claims filters drawn from the whole corpus: every entity's name as subject (most name an entity with few or no
// claims on that side) and subject texts as written; rare values of the other filters.
const claimSubjects = shuffle([
  ...(await database.rows<{ v: string }>(sql`select name as v from entities`)).map((r) => r.v),
  ...(
    await database.rows<{ v: string }>(sql`select distinct subject_text as v from claims tablesample system (0.5)`)
  ).map((r) => r.v),
])
  .map((v) => `/api/v1/claims?subject=${encodeURIComponent(v)}`)
  .slice(0, 5000)
const rareOrganisms = (
  await database.rows<{ v: string }>(
    sql`select organism as v from claims where organism is not null group by 1 order by count(*) limit 6`,
  )
).map((r) => r.v)
const rareObjects = (
  await database.rows<{ v: string }>(sql`select name as v from entities e
  where not exists (select from claims c where c.object_entity_id = e.id) order by random() limit 20`)
).map((r) => r.v)
const claimRare = shuffle([
  ...rareOrganisms.map((v) => `/api/v1/claims?organism=${encodeURIComponent(v)}`),
  ...rareObjects.map((v) => `/api/v1/claims?object=${encodeURIComponent(v)}`),
  '/api/v1/claims?relation=extends_lifespan',
  '/api/v1/claims?relation=no_such_relation',
  '/api/v1/claims?organism=no%20such%20organism',
  '/api/v1/claims?object=no%20such%20thing',
  '/api/v1/claims?subject=no%20such%20thing',
])
// /papers?q= with a word of a title drawn from the whole corpus (common and rare words as they come) and words none holds.
const titleWords = (
  await database.rows<{ title: string }>(sql`select title from papers tablesample bernoulli (0.05) limit 400`)
)
  .map((r, i) => {
    const words = r.title.split(/[^A-Za-z]+/).filter((w) => w.length >= 4)
    return words[i % Math.max(words.length, 1)]
  })
  .filter((w): w is string => Boolean(w))
// Stop words are refused (400: q has no searchable words), as the contract says.
const searchable = (
  await database.rows<{ w: string }>(
    sql`select w from unnest(string_to_array(${titleWords.join(' ')}, ' ')) w where numnode(geroscope_tsquery(w)) > 0`,
  )
).map((r) => r.w)
const paperQueries = shuffle([...searchable, 'zzqxv', 'klothoo', 'senolytix']).map(
  (w) => `/api/v1/papers?q=${encodeURIComponent(w)}`,
)
const [newest] = await database.rows<{ d: string }>(sql`select (max(indexed_date) - 30)::text as d from papers`)
await database.close()
console.log(`${ids.length.toLocaleString('en-US')} paper ids, ${entityPaths.length.toLocaleString('en-US')} entities`)

const servers = new Map<Mode, BenchServer>()
let plainConstants: object = {}
const appName = (mode: string) => `geroscope-bench-cache-${mode}-${process.pid}`
const basePort = numberOption('port', 20000 + Math.floor(Math.random() * 30000)) // --port: the first of the ports the services take
for (const [i, mode] of modes.entries()) {
  if (mode === 'plain') continue
  servers.set(
    mode,
    await startServer(
      databaseUrl,
      basePort + i,
      {
        PGAPPNAME: appName(mode),
        ...(mode !== 'on' ? { RESPONSE_CACHE_MB: '0' } : {}),
      },
      mode === 'before' ? before : undefined,
    ),
  )
}
const anyServer = servers.values().next().value!
if (plain) {
  // The plain implementation writes the service's public base URL into its SQL, as the service's answers show it.
  const sample = await fetch(`${anyServer.url}/api/v1/papers?limit=1`, {
    headers: { authorization: `Bearer ${keys[0]}` },
  })
  const siteUrl = ((await sample.json()) as { data: { site_url: string }[] }).data[0].site_url
  plainConstants = {
    base: siteUrl.slice(0, siteUrl.lastIndexOf('/papers/')),
    openLicenses: OPEN_LICENSES,
    studyTypeLabels: STUDY_TYPE_LABELS,
  }
  servers.set(
    'plain',
    await startPlainServer(
      databaseUrl,
      basePort + modes.indexOf('plain'),
      { PGAPPNAME: appName('plain') },
      plainConstants,
    ),
  )
}

/**
 * The plain implementation's statements for `paths`, one request each (it runs one statement a request): written
 * down by an instance of its own, not the one measured, asked one path at a time.
 */
async function capturePlainStatements(paths: string[]): Promise<Captured[]> {
  const file = join(mkdtempSync(join(tmpdir(), 'geroscope-plain-')), 'statements.jsonl')
  const capturing = await startPlainServer(
    databaseUrl!,
    basePort + modes.length,
    { PLAIN_CAPTURE: file },
    plainConstants,
  )
  try {
    for (const path of paths) await answerOf(capturing, path)
  } finally {
    await capturing.stop()
  }
  const statements = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Captured[number])
  if (statements.length !== paths.length)
    throw new Error(`the plain implementation ran ${statements.length} statements for ${paths.length} requests`)
  return statements.map((statement) => [statement])
}

/** Walks `pages` pages of /papers on `server` to get the cursor of the page after them. */
async function cursorAfter(pages: number, server = anyServer): Promise<string> {
  let cursor = ''
  for (let i = 0; i < pages; i++) {
    const response = await fetch(`${server.url}/api/v1/papers?limit=25${cursor ? `&cursor=${cursor}` : ''}`, {
      headers: { authorization: `Bearer ${keys[i % keys.length]}` },
    })
    const body = (await response.json()) as { pagination: { next_cursor: string } }
    cursor = body.pagination.next_cursor
  }
  return cursor
}

const combined = TOPICS.flatMap((topic) =>
  STUDY_TYPES.slice(0, 3).map(
    (st) => `/api/v1/papers?topic=${topic}&study_type=${st}&since=${newest.d}&preprint=false`,
  ),
)

/** `paths`: what each build is asked; the plain implementation's cursors are its own, so a deep page is walked on it too. */
const scenarios: { name: string; paths: (server: BenchServer) => Promise<string[]> | string[] }[] = [
  { name: 'paper', paths: () => ids.map((id) => `/api/v1/papers/${id}`) },
  { name: 'papers', paths: () => ['/api/v1/papers'] },
  // fields=: the same page with two fields of each paper, at 25 and 100 papers a page.
  { name: 'papers-fields', paths: () => ['/api/v1/papers?fields=id,title'] },
  { name: 'papers-100', paths: () => ['/api/v1/papers?limit=100'] },
  { name: 'papers-100-fields', paths: () => ['/api/v1/papers?limit=100&fields=id,title'] },
  { name: 'claims', paths: () => ['/api/v1/claims'] },
  { name: 'claims-subject', paths: () => claimSubjects },
  { name: 'claims-rare', paths: () => claimRare },
  { name: 'stories', paths: () => ['/api/v1/stories'] },
  { name: 'entities', paths: () => ['/api/v1/entities'] },
  { name: 'entity', paths: () => entityPaths },
  { name: 'papers-combined', paths: () => combined },
  { name: 'papers-q', paths: () => paperQueries },
  {
    name: 'papers-page-400',
    paths: async (server) => [`/api/v1/papers?limit=25&cursor=${await cursorAfter(399, server)}`],
  },
  {
    name: 'search',
    paths: () =>
      ['senolytic', 'rapamycin mice', '"caloric restriction"', 'NAD+', 'autophagy OR mitophagy', 'klotho'].map(
        (q) => `/api/v1/search?q=${encodeURIComponent(q)}`,
      ),
  },
  { name: 'stats', paths: () => ['/api/v1/stats'] },
  { name: 'topics', paths: () => ['/api/v1/topics'] },
]

type Run = WrkResult & { appMs: number; pgMs: number; load: string }
const format = (r: Run) =>
  `${Math.round(r.rps).toString().padStart(6)} req/s  p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  ` +
  `app CPU ${r.appMs.toFixed(3)} ms/req  PG CPU ${r.pgMs.toFixed(3)} ms/req  load ${r.load}`

/** One wrk run against one service, with the CPU its process and its backends used per request. */
async function run(mode: Mode, paths: string[], secs: number): Promise<Run> {
  const server = servers.get(mode)!
  const pgPids = await backendPids(databaseUrl!, appName(mode))
  const app = cpuMeter([server.pid])
  const pg = cpuMeter(pgPids)
  const r = await wrk(server.url, paths, keys, secs, CONNECTIONS, acceptEncoding)
  const [appSeconds, pgSeconds] = [app(), pg()]
  if (r.non2xx > 0 || r.errors > 0)
    throw new Error(`${paths[0]}: ${r.non2xx} non-2xx answers and ${r.errors} socket errors`)
  return { ...r, appMs: (appSeconds * 1000) / r.requests, pgMs: (pgSeconds * 1000) / r.requests, load: loadAverage() }
}

/** The answer to `path` parsed, without the cursor (each implementation writes its own). */
async function answerOf(server: BenchServer, path: string) {
  const response = await fetch(server.url + path, { headers: { authorization: `Bearer ${keys[0]}` } })
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
  const body = (await response.json()) as { pagination?: { next_cursor?: unknown } }
  if (body.pagination) body.pagination.next_cursor = body.pagination.next_cursor === null ? null : 'a cursor'
  return body
}

/** Stops the benchmark unless the plain implementation's answers to the first `n` paths parse to the service's. */
async function checkPlainAnswers(servicePaths: string[], plainPaths: string[], n = 200) {
  const service = servers.get(modes.find((m) => m !== 'plain')!)!
  for (let i = 0; i < Math.min(n, servicePaths.length); i++) {
    const [mine, theirs] = [
      await answerOf(service, servicePaths[i]),
      await answerOf(servers.get('plain')!, plainPaths[i]),
    ]
    if (!Bun.deepEquals(mine, theirs)) {
      throw new Error(
        `the plain implementation's answer to ${plainPaths[i]} is not the service's:\n${JSON.stringify(mine).slice(0, 2000)}\n${JSON.stringify(theirs).slice(0, 2000)}`,
      )
    }
  }
}

const selected = scenarios.filter((s) => !only || only.includes(s.name))
const prepared: {
  name: string
  modes: Mode[]
  paths: Map<Mode, string[]>
  script: string | null
  plainScript: string | null
}[] = []
for (const s of selected) {
  const own = modes.filter((m) => m !== 'plain' || PLAIN_SCENARIOS.has(s.name))
  const paths = new Map<Mode, string[]>()
  const servicePaths = await s.paths(anyServer)
  for (const mode of own) paths.set(mode, mode === 'plain' ? await s.paths(servers.get('plain')!) : servicePaths)
  if (own.includes('plain')) await checkPlainAnswers(servicePaths, paths.get('plain')!)
  for (const mode of own) {
    await answerOf(servers.get(mode)!, paths.get(mode)![0])
    await wrk(servers.get(mode)!.url, paths.get(mode)!, keys, 2, CONNECTIONS, acceptEncoding) // warm-up
  }
  const script = withPgbench
    ? pgbenchScript(await captureStatements(databaseUrl, keys[0], servicePaths.slice(0, 64)))
    : null
  const plainScript =
    withPgbench && own.includes('plain')
      ? pgbenchScript(await capturePlainStatements(paths.get('plain')!.slice(0, 64)))
      : null
  prepared.push({ name: s.name, modes: own, paths, script, plainScript })
}

const results = new Map<string, Run[]>()
const ceilings = new Map<string, number[]>()
const push = <T>(map: Map<string, T[]>, key: string, value: T) => map.set(key, [...(map.get(key) ?? []), value])
try {
  for (let round = 1; round <= runs; round++) {
    for (const [k, s] of prepared.entries()) {
      // The first build measured follows the last scenario's pgbench, and runs of the 2026-11-24 (eleventh session)
      // lost up to 60% in that place alone now and then: each scenario and round starts with the next build in turn.
      const turn = (round - 1 + k) % s.modes.length
      for (const mode of [...s.modes.slice(turn), ...s.modes.slice(0, turn)]) {
        const r = await run(mode, s.paths.get(mode)!, seconds)
        push(results, `${s.name}|${mode}`, r)
        console.log(`round ${round} ${s.name.padEnd(16)} ${mode.padEnd(6)}: ${format(r)}`)
      }
      if (s.script) {
        const tps = await pgbench(databaseUrl, s.script, seconds, CONNECTIONS)
        push(ceilings, s.name, tps)
        console.log(
          `round ${round} ${s.name.padEnd(16)} pgbench  : ${Math.round(tps).toString().padStart(6)} tps (its statements, ${CONNECTIONS} clients, prepared)`,
        )
      }
      if (s.plainScript) {
        const tps = await pgbench(databaseUrl, s.plainScript, seconds, CONNECTIONS)
        push(ceilings, `${s.name}|plain`, tps)
        console.log(
          `round ${round} ${s.name.padEnd(16)} pgbench  : ${Math.round(tps).toString().padStart(6)} tps (the plain implementation's statements)`,
        )
      }
    }
  }
  if (soakSeconds > 0) {
    const mixed = [
      ...ids.slice(0, 500).map((id) => `/api/v1/papers/${id}`),
      '/api/v1/papers',
      '/api/v1/claims',
      '/api/v1/stories',
      '/api/v1/entities',
      '/api/v1/stats',
      '/api/v1/topics',
      ...combined.slice(0, 20),
    ]
    for (const mode of modes.filter((m) => m !== 'plain')) {
      const r = await wrk(servers.get(mode)!.url, mixed, keys, soakSeconds)
      console.log(
        `soak ${soakSeconds} s mixed, cache ${mode}: ${Math.round(r.rps)} req/s p99 ${r.p99.toFixed(1)} ms; server RSS after it: ${servers.get(mode)!.rssMb().toFixed(0)} MB`,
      )
    }
  }
} finally {
  for (const server of servers.values()) await server.stop()
}

const lines: string[] = []
for (const s of prepared) {
  const ceilingOf = (key: string) => (ceilings.has(key) ? median(ceilings.get(key)!) : null)
  const rpsOf = (mode: Mode) => median(results.get(`${s.name}|${mode}`)!.map((r) => r.rps))
  for (const mode of s.modes) {
    const rs = results.get(`${s.name}|${mode}`)!
    const mid = (pick: (r: Run) => number) => median(rs.map(pick))
    // The service's builds against its statements' ceiling, the plain implementation against its own.
    const ceiling = mode === 'on' ? null : ceilingOf(mode === 'plain' ? `${s.name}|plain` : s.name)
    const ratio = ceiling ? `${((mid((r) => r.rps) / ceiling) * 100).toFixed(0)}%` : ''
    const overPlain =
      s.modes.includes('plain') && mode !== 'plain' ? `${(rpsOf(mode) / rpsOf('plain')).toFixed(2)}×` : ''
    lines.push(
      `| ${s.name} | ${mode} | ${Math.round(mid((r) => r.rps))} | ${mid((r) => r.p50).toFixed(1)} | ${mid((r) => r.p99).toFixed(1)} | ` +
        `${mid((r) => r.appMs).toFixed(3)} | ${mid((r) => r.pgMs).toFixed(3)} | ${ceiling ? Math.round(ceiling) : ''} | ${ratio} |` +
        (plain ? ` ${overPlain} |` : ''),
    )
  }
}
console.log(
  `\nload average at end: ${loadAverage()}\nmedians of ${runs} interleaved rounds:\n` +
    `| scenario | service (cache) | req/s | p50 ms | p99 ms | app CPU ms/req | PG CPU ms/req | pgbench tps | of ceiling |${plain ? ' ÷ plain |' : ''}\n` +
    `|---|---|---|---|---|---|---|---|---|${plain ? '---|' : ''}\n` +
    lines.join('\n'),
)
