/** What every /api/v1 feature module needs, taken from the app context once. */
import type { Db } from '../../db/client'

export type V1Context = {
  db: Db
  baseUrl: string // PUBLIC_BASE_URL
  secret: string // APP_SECRET, signs cursors
}
