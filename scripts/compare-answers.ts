/**
 * Byte-for-byte comparison of two builds of the service on one database (issue 15: no answer may
 * change a byte). Starts `src/index.ts` of each tree with the response cache off and asks both the
 * same paths: paper ids drawn from the whole corpus, list pages and their next pages, entities.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/geroscope_bench_seed bun scripts/compare-answers.ts --before /work/main [--papers 2000] [--port N]
 * On the embedded database (PGlite), which one process holds at a time, the two builds run one after the other on
 * the same data directory (DATA_DIR, the corpus loaded with `DATA_DIR=... bun run cli seed synthetic --papers N`):
 * the first's answers are kept, the second is asked the same paths and compared.
 *   bun scripts/compare-answers.ts --before /work/main --pglite DATA_DIR [--papers 2000]
 */
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../src/db/client'
import { benchKeys } from './bench/keys'
import { numberOption } from './bench/wrk'

const pgliteAt = process.argv.indexOf('--pglite')
const dataDir = pgliteAt > 0 ? process.argv[pgliteAt + 1] : undefined
const databaseUrl = dataDir ? undefined : process.env.DATABASE_URL
if (!databaseUrl && !dataDir) throw new Error('set DATABASE_URL, or give --pglite DATA_DIR')
const at = process.argv.indexOf('--before')
if (at < 0) throw new Error('--before <directory of the other tree>')
const before = process.argv[at + 1]
const count = numberOption('papers', 2000)
const entityCount = numberOption('entities', 300)

const database = dataDir
  ? await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'pglite') })
  : await openDatabase({ kind: 'postgres', url: databaseUrl!, max: 2 })
const keys = await benchKeys(database.db, 40) // pro keys allow 600 requests a minute each
const ids = (await database.rows<{ id: string }>(sql`select id from papers order by random() limit ${count}`)).map(
  (r) => r.id,
)
const entities = await database.rows<{ type: string; key: string }>(
  sql`select type, key from entities where paper_count > 0 order by random() limit ${entityCount}`,
)
// Claim filters from the whole corpus: entity names and keys (resolved sides), side texts as written and cut short
// (substrings, often naming no entity), every organism and relation, and values nothing matches.
const entityNames = (
  await database.rows<{ v: string }>(sql`select name as v from entities order by random() limit 40`)
).map((r) => r.v)
const sideTexts = await database.rows<{ s: string; o: string }>(
  sql`select subject_text as s, object_text as o from claims tablesample system (1) order by random() limit 30`,
)
const organisms = (
  await database.rows<{ v: string }>(sql`select distinct organism as v from claims where organism is not null`)
).map((r) => r.v)
const relations = (await database.rows<{ v: string }>(sql`select distinct relation as v from claims`)).map((r) => r.v)
const claimQueries = [
  ...entityNames.flatMap((v) => [`subject=${encodeURIComponent(v)}`, `object=${encodeURIComponent(v)}`]),
  ...sideTexts.flatMap(({ s, o }) => [
    `subject=${encodeURIComponent(s)}`,
    `object=${encodeURIComponent(o)}`,
    `subject=${encodeURIComponent(s.slice(1, 6))}`,
  ]),
  ...organisms.map((v) => `organism=${encodeURIComponent(v.slice(0, 8))}`),
  'organism=mice',
  'organism=naked%20mole-rat',
  ...relations.map((v) => `relation=${v}`),
  'relation=nothing_like_it',
  'subject=zzqx',
  'object=%25',
  'subject=a',
  `subject=${encodeURIComponent(entityNames[0])}&relation=${relations[0]}&organism=homo`,
  'subject=rapamycin&object=lifespan',
  'count=true&group_by=organism',
  `subject=${encodeURIComponent(entityNames[1])}&count=true&group_by=relation`,
  'fields=id,subject.entity,paper.site_url&limit=7',
  'limit=100',
  'limit=1',
]
// Paper filters from the whole corpus: words of titles, common and rare (stop words are refused by both), words none
// holds, and combinations of facets, walked several pages (src/queries/windowed-page.ts reads them in windows).
const titleWords = (
  await database.rows<{ w: string }>(sql`select w from (select (regexp_split_to_array(title, '[^A-Za-z]+'))[3] as w
  from papers tablesample system (0.1) limit 200) t where length(w) >= 4 and numnode(geroscope_tsquery(w)) > 0 order by random() limit 24`)
).map((r) => r.w)
const paperQueries = [
  ...titleWords.map(
    (w, i) => `q=${encodeURIComponent(w)}${i % 3 === 0 ? '&fields=id,title' : ''}${i % 4 === 0 ? '&limit=100' : ''}`,
  ),
  'q=zzqxv',
  'q=klothoo&fields=id',
  'q=%22dietary%20restriction%22&limit=100',
  'preprint=true',
  'preprint=true&fields=id&limit=7',
  'topic=reprogramming&study_type=other&preprint=true&min_relevance=3',
  'study_type=invertebrate&topic=glp-1',
  'study_type=invertebrate&topic=glp-1&fields=id',
  'topic=reprogramming&since=2026-09-01&until=2026-09-20',
  'q=aging&topic=glp-1&preprint=true',
]
const [withStory] = await database.rows<{ id: string }>(
  sql`select paper_id as id from stories s where exists (select 1 from claims c where c.paper_id = s.paper_id) limit 1`,
)
await database.close()

async function start(dir: string, port: number) {
  const child = Bun.spawn([process.execPath, 'src/index.ts'], {
    cwd: dir,
    stdout: 'ignore',
    stderr: 'inherit',
    env: {
      ...process.env,
      ...(dataDir ? { DATA_DIR: dataDir, DATABASE_URL: '' } : { DATABASE_URL: databaseUrl }),
      PORT: String(port),
      WORKERS: 'off',
      DEMO_DATA: 'off',
      NODE_ENV: 'production',
      APP_SECRET: 'b'.repeat(40),
      RESPONSE_CACHE_MB: '0',
      PUBLIC_BASE_URL: 'https://geroscope.example',
    },
  })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/api/v1/papers`)).status === 401) break
    } catch {}
    if (i > 1200) throw new Error(`${dir} did not start`)
    await Bun.sleep(100)
  }
  return {
    url,
    stop: async () => {
      child.kill()
      await child.exited
    },
  }
}

const port = numberOption('port', 20000 + Math.floor(Math.random() * 30000)) // --port: the first of two ports
// PGlite: the first build alone, its answers kept (`recorded`); then the second alone, compared with them.
const a = await start(before, port)
let b = dataDir ? null : await start(process.cwd(), port + 1)
const recorded = dataDir ? new Map<string, string>() : null
let replaying = false
let asked = 0
const get = async (base: string, path: string) => {
  // identity: the bytes as the server sends them, with no decompression in between (fetch asks for br and gzip by default)
  const r = await fetch(base + path, {
    headers: { authorization: `Bearer ${keys[Math.floor(asked++ / 2) % keys.length]}`, 'accept-encoding': 'identity' },
  })
  // /stats says when its numbers were computed: each service computed its own.
  return `${r.status} ${r.headers.get('content-type')}\n${(await r.text()).replace(/"generated_at":"[^"]*"/, '"generated_at":"…"')}`
}
let compared = 0
let differing = 0
async function compare(path: string): Promise<string> {
  if (recorded && !replaying) {
    const x = await get(a.url, path)
    recorded.set(path, x)
    return x
  }
  const [x, y] = recorded
    ? [recorded.get(path) ?? '(not asked of the first build)', await get(b!.url, path)]
    : await Promise.all([get(a.url, path), get(b!.url, path)])
  compared++
  if (x !== y) {
    differing++
    if (differing <= 5) console.log(`DIFFERS ${path}\n--- before\n${x.slice(0, 1500)}\n--- after\n${y.slice(0, 1500)}`)
  }
  return y
}
/** A list path and the next `pages` pages after it. */
async function walk(path: string, pages: number) {
  let next: string | null = path
  for (let i = 0; i <= pages && next; i++) {
    const body = await compare(next)
    const cursor = (JSON.parse(body.slice(body.indexOf('\n') + 1)) as { pagination?: { next_cursor: string | null } })
      .pagination?.next_cursor
    next = cursor ? `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : null
  }
}
async function askAll() {
  for (const id of ids) await compare(`/api/v1/papers/${id}`)
  if (withStory) await compare(`/api/v1/papers/${withStory.id.toLowerCase()}`)
  await compare('/api/v1/papers/MED-0')
  for (const list of [
    '/api/v1/papers',
    '/api/v1/papers?min_relevance=0&limit=100',
    '/api/v1/papers?topic=senolytics,epigenetic-clocks&study_type=rct&preprint=false',
    '/api/v1/papers?since=2026-10-01&until=2026-11-01',
    '/api/v1/papers?q=rapamycin',
    '/api/v1/claims',
    '/api/v1/claims?relation=increases',
    '/api/v1/claims?subject=rapamycin',
    '/api/v1/claims?organism=mice',
    '/api/v1/stories',
    '/api/v1/stories?topic=senolytics',
    '/api/v1/entities',
    '/api/v1/papers?fields=id,title',
    '/api/v1/papers?fields=judgement.topic,story.url,site_url,abstract&min_relevance=0&limit=100',
    '/api/v1/papers?fields=story,judgement&preprint=true',
    '/api/v1/stories?fields=paper.judgement,headline,url&limit=100',
    '/api/v1/stories?limit=100',
    '/api/v1/stories?since=2026-01-01&study_type=rct,cohort',
    '/api/v1/papers?limit=1&min_relevance=1',
    '/api/v1/search?q=senolytic',
    '/api/v1/search?q=mice%20rapamycin&min_relevance=0',
    '/api/v1/stats',
    '/api/v1/topics',
    // Page sizes between the steps the statements' limits are written with (src/queries/prepared.ts, $limit).
    '/api/v1/papers?limit=30',
    '/api/v1/papers?limit=10&min_relevance=0',
    '/api/v1/stories?limit=12',
    '/api/v1/claims?limit=40',
    '/api/v1/claims?subject=rapamycin&limit=3',
    // The other orders, publication dates, counts and groups (issue 39: pages joined from stored items).
    '/api/v1/papers?sort=published_date&limit=100',
    '/api/v1/papers?sort=newsworthiness&min_relevance=0',
    '/api/v1/papers?sort=published_date&published_since=2026-09-01&published_until=2026-10-15&topic=senescence',
    '/api/v1/papers?published_since=2026-10-01&study_type=animal&limit=100',
    '/api/v1/papers?count=true&group_by=topic&min_relevance=1',
    '/api/v1/papers?q=senescence&sort=newsworthiness&count=true',
    '/api/v1/stories?topic=senescence,mtor-rapamycin&study_type=animal&limit=100',
  ])
    await walk(list, 5)
  for (const q of claimQueries) await walk(`/api/v1/claims?${q}`, 2)
  for (const q of paperQueries) await walk(`/api/v1/papers?${q}`, 3)
  for (const q of [
    'topic=glp-1&study_type=invertebrate',
    'topic=reprogramming&study_type=other&fields=paper_id,headline',
    'topic=other&limit=100',
    'study_type=invertebrate&since=2026-10-01&fields=paper_id&limit=7',
  ])
    await walk(`/api/v1/stories?${q}`, 3)
  for (const e of entities) await walk(`/api/v1/entities/${encodeURIComponent(e.type)}/${encodeURIComponent(e.key)}`, 1)
  for (const e of entities.slice(0, 10))
    await walk(`/api/v1/entities/${encodeURIComponent(e.type)}/${encodeURIComponent(e.key)}?limit=7`, 3)
}
try {
  await askAll()
  if (recorded) {
    await a.stop()
    b = await start(process.cwd(), port + 1)
    replaying = true
    await askAll()
  }
} finally {
  await a.stop()
  await b?.stop()
}
console.log(`${compared} answers compared, ${differing} differ`)
if (differing) process.exit(1)
