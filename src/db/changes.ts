/**
 * Change notifications (drizzle/0005): triggers NOTIFY these channels whenever what the Data API
 * serves, or what an API key check reads, changes, whichever process made the change.
 */
import type { Database } from './client'
import { log } from '../log'

/** papers, stories, claims, paper_entities, entities, upvotes; search_outbox when drained (drizzle/0023). */
export const DATA_CHANGED = 'geroscope_data_changed'
/** api_keys, accounts. */
export const KEYS_CHANGED = 'geroscope_keys_changed'

/**
 * Calls `onChange` on every notification on `channel`, and after the listening connection was lost
 * and is back, since changes made meanwhile went unheard. A failure to listen is logged, not
 * thrown: callers keep time limits on what they hold, so they stay correct, only slower to learn.
 */
export function watchChanges(database: Database, channel: string, onChange: () => void): Promise<void> {
  return database.listen(channel, onChange, onChange).then(
    () => {},
    (error: Error) =>
      log.warn({ channel, error: error.message }, 'cannot listen for changes; cached answers expire by time only'),
  )
}
