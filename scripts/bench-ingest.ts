/**
 * Harvest throughput: Europe PMC answers replayed from a local server (the recorded 10-page cursor
 * chain of 100 records and the recorded 1,000-record page, both from ../shared/fixtures/europepmc),
 * mapped and stored in PostgreSQL by the real harvest code. Analysis is not part of it.
 *   bun scripts/bench-ingest.ts [--runs 5] [--url postgres://postgres@127.0.0.1:5432] [--database geroscope_bench_ingest] [--keep]
 * Each run empties the tables, then times: the chain into an empty corpus, the 1,000-record page
 * into an empty corpus, and the same page again (every record known and unchanged). Those records
 * are `lite` (no abstract, no MeSH); for the cost of full records it also times a 1,050-record core
 * page made of the 150 recorded core records of ../shared/fixtures/europepmc-mixed-core-150.json
 * (abstracts, MeSH headings to link) seven times over, each copy with ids and DOIs of its own.
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { harvestEuropePmc } from '../src/pipeline/ingest/europepmc/harvest'
import { serve } from '../src/platform/serve'
import { freshBenchDatabase } from './bench/database'

const fixtures = fileURLToPath(new URL('../../shared/fixtures/europepmc/', import.meta.url))
if (!existsSync(fixtures)) {
  console.error(`the recorded Europe PMC answers are read from ${fixtures}, which is missing`)
  process.exit(1)
}

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback
}
const runs = Number(option('runs', '5'))
const server = option('url', 'postgres://postgres@127.0.0.1:5432')
const keep = process.argv.includes('--keep')
// --database: a name of its own, so two checkouts (or two people) can time side by side.
const DATABASE = option('database', 'geroscope_bench_ingest')
if (!/^[a-z_][a-z0-9_]*$/.test(DATABASE)) throw new Error('--database must be a plain lowercase name')

type Answer = { hitCount: number; nextCursorMark?: string; resultList: { result: unknown[] } }
const chain = JSON.parse(readFileSync(fixtures + 'fetch_10pages_cancer.json', 'utf8')) as Answer[]
const page = readFileSync(fixtures + 'search_1000results_cancer.json', 'utf8')
type CoreRecord = { id: string; source: string; pmid?: string; doi?: string }
const coreAnswer = JSON.parse(readFileSync(fixtures + '../europepmc-mixed-core-150.json', 'utf8')) as {
  resultList: { result: CoreRecord[] }
}
const core = JSON.stringify({
  ...coreAnswer,
  hitCount: 1050,
  resultList: {
    result: Array.from({ length: 7 }, (_, copy) =>
      coreAnswer.resultList.result.map((r) => ({
        ...r,
        id:
          r.source === 'PPR'
            ? `PPR${900000000 + copy * 1000000 + Number(r.id.slice(3))}`
            : String(900000000 + copy * 1000000 + Number(r.id)),
        pmid: r.pmid ? String(900000000 + copy * 1000000 + Number(r.pmid)) : undefined,
        doi: r.doi ? `${r.doi}.copy${copy}` : undefined,
      })),
    ).flat(),
  },
})

// Bodies are serialised once so the replay costs as little as a real network answer would.
const chainBodies = new Map<string, string>([['*', JSON.stringify(chain[0])]])
chain.forEach((p, i) => {
  if (i + 1 < chain.length) chainBodies.set(p.nextCursorMark!, JSON.stringify(chain[i + 1]))
})
const end = (cursor: string) =>
  JSON.stringify({ hitCount: chain[0].hitCount, nextCursorMark: cursor, resultList: { result: [] } })
const json = (body: string) => new Response(body, { headers: { 'content-type': 'application/json' } })
const replay = serve((request) => {
  const url = new URL(request.url)
  const cursor = url.searchParams.get('cursorMark') ?? '*'
  if (url.pathname === '/chain/search') return json(chainBodies.get(cursor) ?? end(cursor))
  if (url.pathname === '/page/search') return json(cursor === '*' ? page : end(cursor))
  if (url.pathname === '/core/search') return json(cursor === '*' ? core : end(cursor))
  return new Response('not found', { status: 404 })
}, 0)

const bench = await freshBenchDatabase(server, DATABASE, 4)
const { database } = bench

async function timed(path: string) {
  const config = { europepmcBaseUrl: `http://127.0.0.1:${replay.port}/${path}`, europepmcQuery: 'cancer' }
  const started = performance.now()
  const counts = await harvestEuropePmc(database, config, { since: '2024-01-01', until: '2024-12-31' })
  const seconds = (performance.now() - started) / 1000
  return { seconds, rate: counts.records / seconds, counts }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const results = { chain: [] as number[], page: [] as number[], again: [] as number[], core: [] as number[] }
for (let run = 1; run <= runs; run++) {
  await database.pg!.unsafe('truncate papers, entities, paper_entities, search_outbox, job_state cascade')
  const a = await timed('chain')
  await database.pg!.unsafe('truncate papers, entities, paper_entities, search_outbox, job_state cascade')
  const b = await timed('page')
  const c = await timed('page')
  await database.pg!.unsafe('truncate papers, entities, paper_entities, search_outbox, job_state cascade')
  const d = await timed('core')
  results.core.push(d.rate)
  results.chain.push(a.rate)
  results.page.push(b.rate)
  results.again.push(c.rate)
  console.log(
    `run ${run}: chain ${a.counts.records} records (${a.counts.inserted} stored) in ${a.seconds.toFixed(3)} s = ${Math.round(a.rate)}/s; ` +
      `page ${b.counts.records} (${b.counts.inserted} stored) in ${b.seconds.toFixed(3)} s = ${Math.round(b.rate)}/s; ` +
      `page again (${c.counts.unchanged} unchanged) in ${c.seconds.toFixed(3)} s = ${Math.round(c.rate)}/s; ` +
      `core ${d.counts.records} (${d.counts.inserted} stored) in ${d.seconds.toFixed(3)} s = ${Math.round(d.rate)}/s`,
  )
}
console.log(
  `median records/s: chain ${Math.round(median(results.chain))}, page ${Math.round(median(results.page))}, page again ${Math.round(median(results.again))}, core ${Math.round(median(results.core))}`,
)

await database.close()
await replay.stop()
if (!keep) await bench.drop()
