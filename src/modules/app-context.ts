// What the entry point gives the application (src/app.ts, buildApp) and the feature modules read, in a file of its own
// so that the modules do not import src/app.ts, which imports them.
import type { Config } from '../config'
import type { Database } from '../db/client'
import type { RateLimitStore } from '../rate-limit/store'
import type { SearchBackend } from '../search/backend'
import type { KeyUsageRecorder } from '../accounts/key-last-used'
import type { ResponseCache } from './v1/response-cache'
import type { CorpusSnapshot } from './v1/stats/snapshot'

/** Shared with the entry point: set while the service drains at shutdown, so /readyz turns 503 first. */
export type Lifecycle = { draining: boolean }

export type AppContext = {
  config: Config & { appSecret: string }
  database: Database
  limits: RateLimitStore // in-process by default, PostgreSQL-backed to share counts between instances
  snapshot?: CorpusSnapshot // /stats and /topics numbers, refreshed every minute; made here when not given
  now?: () => Date // injectable clock for rate-limit windows and snapshots
  search?: SearchBackend // PostgreSQL full text when not given
  responseCache?: ResponseCache | null // made from RESPONSE_CACHE_MB when not given; null = none
  // batches api_keys.last_used_at; made here (flushing every 5 s) when not given; close it at shutdown
  keyUsage?: KeyUsageRecorder
  lifecycle?: Lifecycle // the entry point sets `draining` at shutdown, so /readyz answers 503 while requests finish
}
