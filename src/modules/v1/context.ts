/** What every /api/v1 feature module needs, taken from the app context once. */
import type { Db } from '../../db/client'
import type { SearchBackend } from '../../search/backend'
import type { ResponseCache } from './response-cache'

export type V1Context = {
  db: Db
  /**
   * The primary, for the change feed: its horizon and its page must come from one server, and replicas are chosen
   * per query (src/db/replicas.ts), so a page read on a replica that lags the one the horizon came from could pass
   * over commits (src/resources/changes/queries.ts). Absent: `db`.
   */
  primary?: Db
  baseUrl: string // PUBLIC_BASE_URL
  secret: string // APP_SECRET, signs cursors
  search: SearchBackend
  cache: ResponseCache | null // serialized answers of the read endpoints; null = always compute
  /** Resolves once the database answered after the call: what an answer from memory waits for (DatabasePulse). */
  reachable: () => Promise<void>
}
