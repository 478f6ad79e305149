/**
 * What every admin area receives, taken from the app context once (as /api/v1 modules receive
 * V1Context). Areas never authenticate: the gate (gate.ts) has let a request through only with the
 * session its path needs (access.ts), and `caller` hands that session's account to the handler.
 */
import type { Config, LlmConfig } from '../../config'
import type { Database, Db } from '../../db/client'
import type { Session } from '../../accounts/sessions'

export type AdminContext = {
  database: Database // jobs need the whole handle (advisory locks); queries use `db`
  db: Db
  config: Config & { appSecret: string }
  baseUrl: string // PUBLIC_BASE_URL
  secret: string // APP_SECRET, signs cursors
  now: () => Date // injectable clock (sessions, rate limits)
  llm: LlmConfig | null // the model (LLM_*) for areas that write with one; null = the built-in analyzer
  /**
   * Empties this process's cached Data API answers after a write they show (every instance's empty on the NOTIFY that
   * follows).
   */
  dataChanged: () => void
  /** The session of a request the gate let through; throws 401 unauthenticated on a public path. */
  caller: (request: Request) => Session
}
