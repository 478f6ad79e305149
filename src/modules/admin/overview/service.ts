/**
 * The console overview's charts (GET /api/overview/charts): papers harvested, judged and corrected
 * per day, job runs per day by outcome, the review queue and the sources' health, each with its
 * numbers and its SVG drawn here (src/modules/site/charts/, the site's charts), so the console shows
 * pictures without a charting script.
 */
import { sql } from 'drizzle-orm'
import { executeRows, type Db } from '../../../db/client'
import { reviewQueueSize } from '../../../pipeline/judgements/queue'
import { drawChart, type Chart } from '../../site/charts/figure'
import { dailyLines, monthlyStacked, shares } from '../../site/charts/specs'

export const OVERVIEW_DAYS = 30

/** The last `n` UTC days up to `now`'s, oldest first, as YYYY-MM-DD. */
export function lastDays(now: Date, n = OVERVIEW_DAYS): string[] {
  const y = now.getUTCFullYear()
  const m = now.getUTCMonth()
  const d = now.getUTCDate()
  return Array.from({ length: n }, (_, i) => new Date(Date.UTC(y, m, d - (n - 1 - i))).toISOString().slice(0, 10))
}

const SERIES = ['Harvested', 'Judged', 'Corrected by an editor'] as const
const OUTCOMES = ['ok', 'partial', 'failed', 'cancelled', 'running'] as const
const STATES = ['Working', 'Failing', 'Never fetched', 'Disabled'] as const

// Days are UTC days, whatever the session's time zone.
const utcDay = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`)
const utcStart = (day: string) => sql`(${day}::date::timestamp at time zone 'UTC')`

/** Per day: papers stored, papers judged (by their latest judgement), and editors' corrections (every one). */
async function papersPerDay(db: Db, since: string) {
  return executeRows<{ day: string; series: string; n: number }>(
    db,
    sql`
    select ${utcDay('created_at')} as day, 'Harvested' as series, count(*)::int as n from papers
      where created_at >= ${utcStart(since)} group by 1
    union all select ${utcDay('judged_at')}, 'Judged', count(*)::int from papers
      where judged_at >= ${utcStart(since)} group by 1
    union all select ${utcDay('judged_at')}, 'Corrected by an editor', count(*)::int from judgement_versions
      where model = 'editor' and judged_at >= ${utcStart(since)} group by 1`,
  )
}

const runsPerDay = (db: Db, since: string) =>
  executeRows<{ day: string; outcome: string; n: number }>(
    db,
    sql`
  select ${utcDay('started_at')} as day, outcome, count(*)::int as n from job_runs
  where started_at >= ${utcStart(since)} group by 1, 2`,
  )

const sourceHealth = (db: Db) =>
  executeRows<{ state: string; n: number }>(
    db,
    sql`
  select case when not enabled then 'Disabled' when last_fetched_at is null then 'Never fetched'
    when consecutive_failures > 0 then 'Failing' else 'Working' end as state,
    count(*)::int as n
  from rss_sources group by 1`,
  )

const plural = (n: number, noun: string) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`
const sum = <T extends { n: number }>(rows: T[], match: (r: T) => boolean) =>
  rows.filter(match).reduce((n, r) => n + r.n, 0)

export type OverviewChart = {
  id: string
  title: string
  description: string
  table: Chart['table']
  svg: { wide: string; narrow: string }
}

export async function overviewCharts(db: Db, now: Date, reviewThreshold: number): Promise<OverviewChart[]> {
  const days = lastDays(now)
  const span = `${days[0]} to ${days[days.length - 1]}`
  const [papers, runs, queue, sources] = await Promise.all([
    papersPerDay(db, days[0]),
    runsPerDay(db, days[0]),
    reviewQueueSize(db, reviewThreshold),
    sourceHealth(db),
  ])
  const papersOn = (day: string, series: string) => sum(papers, (r) => r.day === day && r.series === series)
  const runsOn = (day: string, outcome: string) => sum(runs, (r) => r.day === day && r.outcome === outcome)
  const paperValues = SERIES.flatMap((series) => days.map((day) => ({ day, series, count: papersOn(day, series) })))
  const runValues = OUTCOMES.flatMap((outcome) =>
    days.map((day) => ({ month: day, group: outcome, papers: runsOn(day, outcome) })),
  )
  const total = (series: string) => sum(papers, (r) => r.series === series)
  const states = STATES.map((label) => ({ label, count: sum(sources, (r) => r.state === label) }))
  const queueParts = [
    { label: 'Low confidence', count: queue.low_confidence },
    { label: 'Audit sample', count: queue.audit },
  ]
  const charts: Chart[] = [
    {
      id: 'chart-papers-daily',
      title: `Papers harvested, judged and corrected per day, ${span}`,
      description:
        `Lines of papers per day over ${OVERVIEW_DAYS} days: ` +
        `${plural(total('Harvested'), 'paper')} harvested, ${plural(total('Judged'), 'paper')} judged and ` +
        `${plural(total('Corrected by an editor'), 'correction')} by editors.`,
      spec: dailyLines(paperValues, [...SERIES], 'Papers'),
      table: { head: ['Day', ...SERIES], rows: days.map((day) => [day, ...SERIES.map((s) => papersOn(day, s))]) },
    },
    {
      id: 'chart-runs-daily',
      title: `Job runs per day by outcome, ${span}`,
      description:
        'Bars of job runs started each day, stacked by outcome: ' +
        `${OUTCOMES.map((o) => `${sum(runs, (r) => r.outcome === o)} ${o}`).join(', ')}.`,
      spec: monthlyStacked(runValues, [...OUTCOMES], 'Outcome', 'Day (UTC)', 'Runs'),
      table: { head: ['Day', ...OUTCOMES], rows: days.map((day) => [day, ...OUTCOMES.map((o) => runsOn(day, o))]) },
    },
    {
      id: 'chart-review-queue',
      title: 'The review queue',
      description:
        `Bars of papers waiting for an editor: ${queue.low_confidence} below the confidence threshold ` +
        `and ${queue.audit} in the audit sample.`,
      spec: shares(queueParts, 'Part of the queue', 'Papers'),
      table: { head: ['Part of the queue', 'Papers'], rows: queueParts.map((p) => [p.label, p.count]) },
    },
    {
      id: 'chart-sources',
      title: 'Sources by health',
      description:
        'Bars of RSS and Atom sources by state: ' +
        `${states.map((s) => `${s.count} ${s.label.toLowerCase()}`).join(', ')}.`,
      spec: shares(states, 'State', 'Sources'),
      table: { head: ['State', 'Sources'], rows: states.map((s) => [s.label, s.count]) },
    },
  ]
  return Promise.all(
    charts.map(async ({ id, title, description, table, ...c }) => ({
      id,
      title,
      description,
      table,
      svg: await drawChart({ id, title, description, table, ...c }),
    })),
  )
}
