/** The Data API under /api/v1: the gate, then one plugin per resource. */
import { Elysia } from 'elysia'
import type { AppContext } from '../app-context'
import type { KeyAuthenticator } from './auth'
import type { V1Context } from './context'
import type { ResponseCache } from './response-cache'
import { v1Gate } from './gate'
import { compressionPlugin } from '../../http/compression'
import { claimsModule } from './claims'
import { evidenceModule } from './evidence'
import { changesModule } from './changes'
import { entitiesModule } from './entities'
import { papersModule } from './papers'
import { batchModule } from './batch'
import { mcpModule, type Handle } from './mcp'
import { sparseModule } from './sparse'
import { batchCharge } from './batch/allowance'
import { takeOne, takeRest } from './rate-limit/take'
import { searchModule } from './search'
import { statsModule } from './stats'
import type { CorpusSnapshot } from './stats/snapshot'
import { storiesModule } from './stories'
import { topicsModule } from './topics'
import { exportsModule } from './exports'
import { searchBackend } from '../../search'
import type { KeyUsageRecorder } from '../../accounts/key-last-used'
import type { DatabaseBreaker } from '../../http/breaker'

type Shared = {
  keys: KeyAuthenticator
  snapshot: CorpusSnapshot
  cache: ResponseCache | null
  reachable: () => Promise<void>
  keyUsage: KeyUsageRecorder
  breaker: DatabaseBreaker
  handle: () => Handle // the whole app's, for the MCP tools' in-process calls
}

export const dataApi = (
  context: AppContext,
  { keys, snapshot, cache, reachable, keyUsage, breaker, handle }: Shared,
) => {
  const db = context.database.reader // reads only: on a fresh replica when there are any (src/db/replicas.ts)
  const search = context.search ?? searchBackend(db, context.config)
  const v1: V1Context = {
    db,
    primary: context.database.db,
    baseUrl: context.config.publicBaseUrl,
    secret: context.config.appSecret,
    search,
    cache,
    reachable,
  }
  const now = context.now ?? (() => new Date())
  const take = takeOne({ keys, limits: context.limits, now })
  const charge = batchCharge(takeRest({ keys, limits: context.limits, now }))
  return new Elysia({ name: 'v1' })
    .use(v1Gate({ keys, limits: context.limits, now, usage: keyUsage, breaker }))
    .use(compressionPlugin) // ETag, 304 and gzip/br on every GET answer below
    .use(batchModule(v1, charge))
    .use(papersModule(v1, charge))
    .use(searchModule(v1))
    .use(entitiesModule(v1))
    .use(claimsModule(v1))
    .use(evidenceModule(v1))
    .use(storiesModule(v1))
    .use(changesModule(v1))
    .use(topicsModule(v1, snapshot))
    .use(statsModule(v1, snapshot))
    .use(exportsModule({ exportDir: context.config.exportDir, baseUrl: context.config.publicBaseUrl, keys }))
    .use(mcpModule(handle, take))
    .use(sparseModule(handle))
}
