/**
 * The /claims and /entities filters at the database, where resolving names to entities changed the
 * queries: the first page (25) of each filter, repeated, median and 90th percentile in ms. --root
 * runs another checkout's queries (to compare before and after on the same machine, interleaved).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/geroscope_bench bun scripts/bench-knowledge.ts [--reps 30] [--root DIR]
 *
 * Load a corpus first: `bun run cli seed synthetic --papers 200000`.
 */
import { sql } from 'drizzle-orm'

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : undefined
}
const root = arg('root') ?? new URL('..', import.meta.url).pathname
const reps = Number(arg('reps') ?? 30)
const url = process.env.DATABASE_URL
if (!url) throw new Error('set DATABASE_URL to a PostgreSQL database holding a synthetic corpus')

const { openDatabase } = await import(`${root}/src/db/client`)
const { listClaims } = await import(`${root}/src/resources/claims/queries`)
const { listEntities } = await import(`${root}/src/resources/entities/queries`)
const database = await openDatabase({ kind: 'postgres', url, max: 2 })
const [{ papers, claims }] = await database.rows(
  sql`select (select count(*) from papers)::int as papers, (select count(*) from claims)::int as claims`,
)

const cases: [string, () => Promise<unknown>][] = [
  ['claims (no filter)', () => listClaims(database.db, {}, 25, null)],
  ['claims subject=rapamycin', () => listClaims(database.db, { subject: 'rapamycin' }, 25, null)],
  ['claims subject=sirolimus', () => listClaims(database.db, { subject: 'sirolimus' }, 25, null)],
  ['claims subject=metformin', () => listClaims(database.db, { subject: 'metformin' }, 25, null)],
  ['claims subject=p16', () => listClaims(database.db, { subject: 'p16' }, 25, null)],
  ['claims subject=SIRT1', () => listClaims(database.db, { subject: 'SIRT1' }, 25, null)],
  ['claims object=lifespan', () => listClaims(database.db, { object: 'lifespan' }, 25, null)],
  ['claims organism=mice', () => listClaims(database.db, { organism: 'mice' }, 25, null)],
  [
    'claims subject=rapamycin&organism=mus',
    () => listClaims(database.db, { subject: 'rapamycin', organism: 'mus' }, 25, null),
  ],
  ['claims subject=zzzz (no match)', () => listClaims(database.db, { subject: 'zzzz' }, 25, null)],
  ['entities q=p16', () => listEntities(database.db, { q: 'p16' }, 25, null)],
  ['entities q=rapa', () => listEntities(database.db, { q: 'rapa' }, 25, null)],
  ['entities q=mice', () => listEntities(database.db, { q: 'mice' }, 25, null)],
  ['entities type=gene&q=sirt', () => listEntities(database.db, { type: 'gene', q: 'sirt' }, 25, null)],
]

console.log(
  `${root}: ${papers.toLocaleString('en-US')} papers, ${claims.toLocaleString('en-US')} claims; ${reps} runs each (ms)`,
)
for (const [name, run] of cases) {
  await run() // warm: plan cache and buffers
  const times: number[] = []
  for (let i = 0; i < reps; i++) {
    const started = performance.now()
    await run()
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  console.log(
    `${name.padEnd(40)} median ${times[Math.floor(reps / 2)].toFixed(2).padStart(7)}  p90 ${times[Math.floor(reps * 0.9)].toFixed(2).padStart(7)}`,
  )
}
await database.close()
