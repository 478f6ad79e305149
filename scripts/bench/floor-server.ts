/**
 * The least a server on this stack can do for a /api/v1/papers page, for scripts/bench-floor.ts:
 *   bun scripts/bench/floor-server.ts MODE PORT  (reads FLOOR_PAGE, FLOOR_STATEMENT, DATABASE_URL)
 * - bytes: the page's recorded bytes, as they are (Bun's HTTP server alone);
 * - stringify: the recorded page as an object, stringified, encoded and fingerprinted per request;
 * - rows: the statement the service sends for the page, run by postgres.js (prepared), its rows made
 *   contract papers by the service's own serializer and sent through the service's conditionalJson
 *   (ETag and all), in a one-route Elysia app: what every list request needs, with no key check,
 *   rate limit, parameters, pager, logging or other plugins.
 */
import { Elysia } from 'elysia'
import postgres from 'postgres'
import { conditionalJson } from '../../src/http/compression'
import { serializeListedPaper } from '../../src/modules/v1/papers/serialize'
import type { PaperListRow } from '../../src/queries/papers'
import { OPEN_LICENSES } from '../../src/taxonomy'

const [mode, port] = [process.argv[2], Number(process.argv[3])]
const page = JSON.parse(await Bun.file(process.env.FLOOR_PAGE!).text()) as { data: unknown[]; pagination: unknown }
const bytes = new TextEncoder().encode(JSON.stringify(page))
const statement = await Bun.file(process.env.FLOOR_STATEMENT!).text()
const sql = postgres(process.env.DATABASE_URL!, { max: 10, onnotice: () => {} })
const bunSql = mode === 'bunsql' ? new Bun.SQL(process.env.DATABASE_URL!, { max: 10 }) : null
const headers = { 'content-type': 'application/json', 'cache-control': 'private, max-age=60', vary: 'Authorization' }

const app = new Elysia()
  .mapResponse(({ request, response, set }) => conditionalJson(request, response, set.headers as Record<string, unknown>) ?? undefined)
  .get('/floor', async ({ set }) => {
    Object.assign(set.headers, headers)
    if (mode === 'bytes') return new Response(bytes, { headers })
    if (mode === 'stringify') return { data: page.data, pagination: page.pagination }
    const rows = bunSql ? await bunSql.unsafe(statement, [[...OPEN_LICENSES], 2, 26]) : await sql.unsafe(statement, [[...OPEN_LICENSES], 2, 26], { prepare: true })
    const papers = rows as unknown as PaperListRow[]
    return { data: papers.slice(0, 25).map((r) => serializeListedPaper(r, 'http://localhost')), pagination: page.pagination }
  })
  .listen(port)
process.on('SIGTERM', async () => {
  await app.stop()
  await sql.end({ timeout: 1 })
  process.exit(0)
})
console.log('ready')
