/**
 * What the /api/intelligence routes do, as plain functions: make sure a snapshot exists, page
 * through groups or gaps, attach pairs, claims and papers, and say how fresh the answer is.
 */
import type { Database } from '../../../db/client'
import { ApiError, invalidParameter, notFound } from '../../../http/errors'
import {
  claimsById,
  getGroup,
  listGroups,
  pairsFor,
  type ContradictionFilters,
  type GroupRow,
} from '../../../pipeline/intelligence/contradictions'
import { gapPapers, getGap, listGaps, type GapFilters, type GapRow } from '../../../pipeline/intelligence/gaps'
import {
  readState,
  readWatermark,
  refreshIntelligence,
  sameWatermark,
  type IntelligenceState,
} from '../../../pipeline/intelligence/refresh'
import { SCORING_NOTE } from '../../../pipeline/intelligence/scoring'
import { JobBusyError } from '../../../jobs/job-lock'
import type { CursorPosition } from '../../../http/cursor'
import { pager } from '../../../http/pager'
import { serializeGap, serializeGroup } from './serialize'
import { drawChart, type Chart } from '../../site/charts/figure'
import { attentionChart, contradictionChart } from '../../site/charts/intelligence-charts'

export type IntelligenceContext = {
  database: Database
  baseUrl: string // PUBLIC_BASE_URL
  secret: string // APP_SECRET, signs cursors
}

const PAIRS_IN_LIST = 3
const PAIRS_IN_DETAIL = 20

/** How long the first request waits for the first computation before it answers 503 (and the run goes on). */
const FIRST_RUN_WAIT_MS = 10_000

/**
 * The stored snapshot's state. Before the first one exists, a request starts the computation and
 * waits for it a little: a small corpus is answered at once, a large one (minutes at a million
 * papers) gets a 503 with Retry-After while the run goes on.
 */
export async function ensureSnapshot(database: Database): Promise<IntelligenceState> {
  const state = await readState(database.db)
  if (state) return state
  let failure: unknown = null
  const run = refreshIntelligence(database).then(
    () => 'done' as const,
    (error: unknown) => {
      if (error instanceof JobBusyError) return 'busy' as const
      failure = error
      return 'failed' as const
    },
  )
  const outcome = await Promise.race([
    run,
    new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), FIRST_RUN_WAIT_MS).unref?.()),
  ])
  if (outcome === 'failed') throw failure // the error plugin tells a lost database (503) from a fault (500)
  const computed = outcome === 'done' ? await readState(database.db) : null
  if (computed) return computed
  throw new ApiError('unavailable', 'contradictions and gaps are being computed for the first time; retry shortly', {
    'retry-after': '30',
  })
}

async function meta(database: Database, state: IntelligenceState) {
  const now = await readWatermark(database.db)
  return {
    computed_at: state.computed_at,
    reference_date: state.reference_date,
    stale: !sameWatermark(state.watermark, now),
    scoring: SCORING_NOTE,
  }
}

type Paging = { cursor?: string; limit?: number }

/**
 * Where a cursor continues. A cursor belongs to the snapshot it was made from: after a refresh the
 * scores and order have changed, so the walk must start again rather than skip or repeat groups.
 */
function position(after: CursorPosition | null, state: IntelligenceState) {
  if (!after) return null
  if (after[2] !== state.computed_at) {
    throw invalidParameter(
      `cursor comes from results computed at ${after[2]}; they were recomputed at ${state.computed_at}, so start ` +
        `again from the first page`,
    )
  }
  return { score: Number(after[0]), id: String(after[1]) }
}

async function withPairs(
  database: Database,
  groups: GroupRow[],
  f: ContradictionFilters,
  perGroup: number,
  base: string,
) {
  const pairs = await pairsFor(
    database.db,
    groups.map((g) => g.id),
    f,
    perGroup,
  )
  const claimIds = [...pairs.values()].flat().flatMap((p) => [p.increase_claim_id, p.decrease_claim_id])
  const claims = await claimsById(database.db, claimIds)
  return groups.map((g) => serializeGroup(g, pairs.get(g.id) ?? [], claims, base))
}

/** One page of a snapshot's list (groups or gaps), best score first, with its freshness. */
async function snapshotPage<F, Row extends { score: number; id: string }, Item>(
  ctx: IntelligenceContext,
  endpoint: string,
  f: F & Record<string, unknown>,
  paging: Paging,
  list: (f: F, limit: number, after: { score: number; id: string } | null) => Promise<Row[]>,
  serialize: (rows: Row[]) => Promise<Item[]>,
) {
  const state = await ensureSnapshot(ctx.database)
  const page = pager(ctx.secret, endpoint, f, paging)
  const rows = await list(f, page.limit, position(page.after, state))
  const { items, pagination } = page.page(rows, (r) => [r.score, r.id, state.computed_at])
  return { data: await serialize(items), pagination, meta: await meta(ctx.database, state) }
}

export function contradictionPage(ctx: IntelligenceContext, f: ContradictionFilters, paging: Paging) {
  return snapshotPage(
    ctx,
    'admin-contradictions',
    f,
    paging,
    (f, limit, after) => listGroups(ctx.database.db, f, limit, after),
    (groups) => withPairs(ctx.database, groups, f, PAIRS_IN_LIST, ctx.baseUrl),
  )
}

export async function contradictionOne(ctx: IntelligenceContext, id: string) {
  const state = await ensureSnapshot(ctx.database)
  const group = /^c[0-9a-f]{16}$/.test(id) ? await getGroup(ctx.database.db, id) : null
  if (!group) throw notFound(`no contradiction group "${id}" in the snapshot computed at ${state.computed_at}`)
  const [data] = await withPairs(ctx.database, [group], {}, PAIRS_IN_DETAIL, ctx.baseUrl)
  return { data: data!, meta: await meta(ctx.database, state) }
}

async function serializeGaps(database: Database, gaps: GapRow[], base: string) {
  const papers = await gapPapers(
    database.db,
    gaps.flatMap((g) => g.paperIds.slice(0, 6)),
  )
  return gaps.map((g) => serializeGap(g, papers, base))
}

export function gapPage(ctx: IntelligenceContext, f: GapFilters, paging: Paging) {
  return snapshotPage(
    ctx,
    'admin-gaps',
    f,
    paging,
    (f, limit, after) => listGaps(ctx.database.db, f, limit, after),
    (gaps) => serializeGaps(ctx.database, gaps, ctx.baseUrl),
  )
}

export async function gapOne(ctx: IntelligenceContext, id: string) {
  const state = await ensureSnapshot(ctx.database)
  const gap = /^g[0-9a-f]{16}$/.test(id) ? await getGap(ctx.database.db, id) : null
  if (!gap) throw notFound(`no gap "${id}" in the snapshot computed at ${state.computed_at}`)
  const [data] = await serializeGaps(ctx.database, [gap], ctx.baseUrl)
  return { data: data!, meta: await meta(ctx.database, state) }
}

/** Recomputes now; 409 while the job runs (scheduled, or another operator's request). */
export async function refreshNow(ctx: IntelligenceContext) {
  try {
    const counts = await refreshIntelligence(ctx.database)
    const state = (await readState(ctx.database.db))!
    const { duration_ms: _, ...rest } = counts
    return {
      data: { computed_at: state.computed_at, duration_ms: counts.duration_ms ?? state.duration_ms, counts: rest },
    }
  } catch (error) {
    if (error instanceof JobBusyError)
      throw new ApiError(
        'conflict',
        'contradictions and gaps are being computed right now; try again when that run ends',
      )
    throw error
  }
}

/** A chart as the API gives it: its numbers and both drawings. */
async function drawn({ id, title, description, table, ...rest }: Chart) {
  return { id, title, description, table, svg: await drawChart({ id, title, description, table, ...rest }) }
}

/** The claims on each side of the groups of one list page (the same filters and paging as the list). */
export async function contradictionChartPage(ctx: IntelligenceContext, f: ContradictionFilters, paging: Paging) {
  const page = await contradictionPage(ctx, f, paging)
  return { data: await drawn(contradictionChart(page.data)), meta: page.meta }
}

/** Sparklines of the declining-attention gaps on one list page (the same filters and paging as the list). */
export async function gapChartsPage(ctx: IntelligenceContext, f: GapFilters, paging: Paging) {
  const page = await gapPage(ctx, f, paging)
  const charts = await Promise.all(
    page.data
      .filter((g) => g.series !== null)
      .map(async (g) => ({
        ...(await drawn(
          attentionChart({
            id: g.id,
            subject: g.subject?.label ?? g.title,
            series: g.series!,
            expectedRecent: g.counts.expected_recent ?? null,
          }),
        )),
        gap_id: g.id,
      })),
  )
  return { data: charts, meta: page.meta }
}
