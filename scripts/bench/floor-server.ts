/**
 * The least a server on this stack can do for a list page (/api/v1/papers, /claims or /stories), for
 * scripts/bench-floor.ts:
 *   bun scripts/bench/floor-server.ts MODE PORT  (reads FLOOR_PATH, FLOOR_PAGE, FLOOR_STATEMENT, DATABASE_URL)
 * - bytes: the page's recorded bytes, as they are (Bun's HTTP server alone);
 * - stringify: the recorded page as an object, stringified, encoded and fingerprinted per request;
 * - rows: the statement the service sends for the page, with its parameters, run by postgres.js
 *   (prepared), its rows made contract items by the service's own row mapping and serializer and sent
 *   through the service's conditionalJson (ETag and all), in a one-route Elysia app: what every list
 *   request needs, with no key check, rate limit, parameters, pager, logging or other plugins;
 * - bunsql: the same through Bun.SQL, as the service runs its prepared statements.
 */
import { Elysia } from 'elysia'
import postgres from 'postgres'
import { conditionalJson } from '../../src/http/compression'
import { serializeClaimItem } from '../../src/resources/claims/serialize'
import { serializeListedPaper } from '../../src/resources/papers/serialize'
import { serializeStoryItem } from '../../src/resources/stories/serialize'
import { claimListRow, type ClaimPageRow } from '../../src/resources/claims/queries'
import type { PaperListRow } from '../../src/resources/papers/queries'
import { storyListRow, type StoryPageRow } from '../../src/resources/stories/queries'

/** Each list's rows as its route makes them items. */
const ITEMS: Record<string, (row: never, base: string) => unknown> = {
  '/api/v1/papers': (row: PaperListRow, base) => serializeListedPaper(row, base),
  '/api/v1/claims': (row: ClaimPageRow, base) => serializeClaimItem(claimListRow(row), base),
  '/api/v1/stories': (row: StoryPageRow, base) => serializeStoryItem(storyListRow(row), base),
}

const [mode, port] = [process.argv[2], Number(process.argv[3])]
const page = JSON.parse(await Bun.file(process.env.FLOOR_PAGE!).text()) as { data: unknown[]; pagination: unknown }
const bytes = new TextEncoder().encode(JSON.stringify(page))
const { text: statement, parameters } = JSON.parse(await Bun.file(process.env.FLOOR_STATEMENT!).text()) as {
  text: string
  parameters: unknown[]
}
const item = ITEMS[new URL(process.env.FLOOR_PATH!, 'http://localhost').pathname]
if (!item) throw new Error(`no floor for ${process.env.FLOOR_PATH}: one of ${Object.keys(ITEMS).join(', ')}`)
const sql = postgres(process.env.DATABASE_URL!, { max: 10, onnotice: () => {} })
const bunSql = mode === 'bunsql' ? new Bun.SQL(process.env.DATABASE_URL!, { max: 10 }) : null
const headers = { 'content-type': 'application/json', 'cache-control': 'private, max-age=60', vary: 'Authorization' }

const app = new Elysia()
  .mapResponse(
    ({ request, response, set }) =>
      conditionalJson(request, response, set.headers as Record<string, unknown>) ?? undefined,
  )
  .get('/floor', async ({ set }) => {
    Object.assign(set.headers, headers)
    if (mode === 'bytes') return new Response(bytes, { headers })
    if (mode === 'stringify') return { data: page.data, pagination: page.pagination }
    const rows = bunSql
      ? await bunSql.unsafe(statement, parameters)
      : await sql.unsafe(statement, parameters as postgres.ParameterOrJSON<never>[], { prepare: true })
    return {
      data: (rows as never[]).slice(0, page.data.length).map((r) => item(r, 'http://localhost')),
      pagination: page.pagination,
    }
  })
  .listen(port)
process.on('SIGTERM', async () => {
  await app.stop()
  await sql.end({ timeout: 1 })
  process.exit(0)
})
console.log('ready')
