/**
 * The Europe PMC harvest: every MED and PPR record first indexed in a date window that matches the
 * topic query, paged by cursorMark to the end. Each page is mapped, stored and its successor cursor
 * saved in one transaction (state.ts), so a run that fails part-way resumes at the next run.
 *
 * A record the database refuses (a value beyond one of its limits) costs only itself: the page is
 * then stored record by record and the refused ones are skipped, so the cursor still moves on.
 *
 * Scheduled runs are incremental: the window runs from the last finished day (read again, as
 * records indexed later that day arrive after the run) to today. A backfill (`--since`) keeps its
 * own state, so it never moves the incremental window.
 */
import type { Config } from '../../../config'
import type { Database, Db } from '../../../db/client'
import { errorText } from '../../../db/storable-text'
import { fetchSearchPage, type ClientOptions } from './client'
import { mapRecord, type MappedPaper } from './mapping'
import {
  BACKFILL_STATE,
  INCREMENTAL_STATE,
  readHarvestState,
  sameWindow,
  writeHarvestState,
  type HarvestState,
  type HarvestWindow,
} from './state'
import { storePapers, type StoreCounts } from './store'

export type HarvestProgress = { done: number; total: number | null }

export type HarvestOptions = {
  since?: string // YYYY-MM-DD: a backfill from this day
  until?: string // YYYY-MM-DD, with since; default today
  today?: string // the UTC day the run counts as today (tests)
  onProgress?: (progress: HarvestProgress) => void
  /** A record the database refused, skipped (counted in `skipped`). */
  onRefused?: (id: string, reason: string) => void
  client?: Partial<ClientOptions>
}

export type HarvestCounts = {
  pages: number
  records: number
  inserted: number
  updated: number
  textChanged: number
  unchanged: number
  withdrawn: number
  skipped: number
}

type HarvestConfig = Pick<Config, 'europepmcBaseUrl' | 'europepmcQuery'>

/** How far back the very first incremental run reaches. */
export const FIRST_RUN_DAYS = 2

const dayBefore = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10)

/** Data exceptions (22), integrity violations (23), limits exceeded (54): the data's fault, not the database's. */
function refusesData(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === 'string' && /^(?:22|23|54)/.test(e.code)) return true
  }
  return false
}

/**
 * Stores a page in one go, inside a savepoint; when the database refuses it, each record alone in
 * its own savepoint, skipping the refused ones. The fallback costs a statement per record, but only
 * on the rare page that needs it.
 */
async function storePage(
  tx: Db,
  page: MappedPaper[],
  onRefused: (id: string, reason: string) => void,
): Promise<StoreCounts & { refused: number }> {
  try {
    return { ...(await tx.transaction((savepoint) => storePapers(savepoint, page))), refused: 0 }
  } catch (error) {
    if (!refusesData(error) || page.length === 0) throw error
  }
  const total = { inserted: 0, updated: 0, textChanged: 0, unchanged: 0, withdrawn: 0, refused: 0 }
  for (const paper of page) {
    try {
      const one = await tx.transaction((savepoint) => storePapers(savepoint, [paper]))
      total.inserted += one.inserted
      total.updated += one.updated
      total.textChanged += one.textChanged
      total.unchanged += one.unchanged
      total.withdrawn += one.withdrawn
    } catch (error) {
      if (!refusesData(error)) throw error
      total.refused++
      onRefused(paper.id, errorText(error))
    }
  }
  return total
}

/** `(topic) AND (SRC:MED OR SRC:PPR) AND FIRST_IDATE:[from TO until]` */
export function windowQuery(topic: string, from: string, until: string): string {
  return `(${topic}) AND (SRC:MED OR SRC:PPR) AND FIRST_IDATE:[${from} TO ${until}]`
}

function chooseWindow(
  state: HarvestState,
  config: HarvestConfig,
  options: HarvestOptions,
  today: string,
): HarvestWindow {
  if (options.since) return { from: options.since, until: options.until ?? today, query: config.europepmcQuery }
  if (state.pending && state.pending.query === config.europepmcQuery) return state.pending
  return {
    from: state.harvestedThrough ?? dayBefore(today, FIRST_RUN_DAYS),
    until: today,
    query: config.europepmcQuery,
  }
}

export async function harvestEuropePmc(
  database: Database,
  config: HarvestConfig,
  options: HarvestOptions = {},
): Promise<HarvestCounts> {
  const today = options.today ?? new Date().toISOString().slice(0, 10)
  const stateName = options.since ? BACKFILL_STATE : INCREMENTAL_STATE
  const state = await readHarvestState(database.db, stateName)
  const window = chooseWindow(state, config, options, today)
  const resumed = state.pending && sameWindow(state.pending, window) ? state.pending : null
  const query = windowQuery(window.query, window.from, window.until)
  const client: ClientOptions = { baseUrl: config.europepmcBaseUrl, ...options.client }

  const counts: HarvestCounts = {
    pages: 0,
    records: 0,
    inserted: 0,
    updated: 0,
    textChanged: 0,
    unchanged: 0,
    withdrawn: 0,
    skipped: 0,
  }
  let cursor = resumed?.cursor ?? '*'
  let done = resumed?.done ?? 0
  const seen = new Set<string>([cursor])
  for (;;) {
    const page = await fetchSearchPage(client, query, cursor)
    const mapped: MappedPaper[] = []
    for (const record of page.records) {
      const result = mapRecord(record)
      if ('paper' in result) mapped.push(result.paper)
      else counts.skipped++
    }
    const next = page.nextCursorMark
    // The end: no next cursor, an empty page, or a cursor we already followed (the service repeats it at the end).
    const finished = next === null || page.records.length === 0 || seen.has(next)
    done += page.records.length
    await database.db.transaction(async (tx) => {
      const stored = await storePage(tx, mapped, options.onRefused ?? (() => {}))
      counts.skipped += stored.refused
      counts.inserted += stored.inserted
      counts.updated += stored.updated
      counts.textChanged += stored.textChanged
      counts.unchanged += stored.unchanged
      counts.withdrawn += stored.withdrawn
      const after: HarvestState = finished
        ? { harvestedThrough: options.since ? state.harvestedThrough : window.until, pending: null }
        : { harvestedThrough: state.harvestedThrough, pending: { ...window, cursor: next!, done } }
      await writeHarvestState(tx, stateName, after)
    })
    counts.pages++
    counts.records += page.records.length
    options.onProgress?.({ done, total: page.hitCount })
    if (finished) return counts
    seen.add(next!)
    cursor = next!
  }
}
