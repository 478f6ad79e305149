/**
 * The charts of the public pages and the numbers behind them. Monthly and study-type counts come from
 * the Data API's own counting (paperFacets, behind /api/v1/papers?group_by=), with its default
 * min_relevance of 2 ("about aging biology"), so each chart equals the API request printed under it.
 */
import type { Db } from '../../../db/client'
import type { EvidenceGroupRow } from '../../../resources/evidence/queries'
import { entityClaimsByDirection, entityPapersByYear } from '../../../resources/entities/entity-series'
import { STUDY_TYPE_LABELS, TOPIC_INFO, type StudyType, type TopicInfo } from '../../../taxonomy'
import { paperFacets } from '../../v1/facets/papers'
import type { Chart } from './figure'
import { DIRECTIONS, directions, monthlyStacked, shares, steps } from './specs'

/** "About aging biology": the Data API's default min_relevance. */
const AGING_BIOLOGY = 2
export const CHART_MONTHS = 24

/** The last `n` calendar months up to `today`'s, oldest first, as YYYY-MM. */
export function lastMonths(today: Date, n = CHART_MONTHS): string[] {
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - (n - 1 - i), 1))
    return d.toISOString().slice(0, 7)
  })
}

const plural = (n: number, noun: string) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`
const studyTypeLabel = (s: string | null) => (s ? (STUDY_TYPE_LABELS[s as StudyType] ?? s) : 'Not stated')

/** Papers about aging biology per month indexed, for each topic (one Data API count per topic). */
async function monthlyByTopic(
  db: Db,
  months: string[],
  topics: readonly TopicInfo[],
): Promise<Map<string, Map<string, number>>> {
  const since = `${months[0]}-01`
  const answers = await Promise.all(
    topics.map((t) =>
      paperFacets(db, { minRelevance: AGING_BIOLOGY, topic: [t.slug], since }, { group_by: 'indexed_month' }),
    ),
  )
  const byMonth = (i: number) => new Map((answers[i].group_by ?? []).map((g) => [String(g.key), g.count]))
  return new Map(topics.map((t, i) => [t.slug, byMonth(i)]))
}

/** Home: papers about aging biology per month for the last 24 months, stacked by topic. */
export async function homeChart(db: Db, today: Date): Promise<Chart> {
  const months = lastMonths(today)
  const counts = await monthlyByTopic(db, months, TOPIC_INFO)
  const values = TOPIC_INFO.flatMap((t) =>
    months.map((month) => ({ month, group: t.name, papers: counts.get(t.slug)!.get(month) ?? 0 })),
  )
  const total = values.reduce((n, v) => n + v.papers, 0)
  const monthTotals = months.map((m) => values.filter((v) => v.month === m).reduce((n, v) => n + v.papers, 0))
  const busiest = monthTotals.indexOf(Math.max(...monthTotals))
  return {
    id: 'chart-monthly',
    title: `Papers about aging biology per month, ${months[0]} to ${months[months.length - 1]}, by topic`,
    description:
      'Bars of papers indexed each month, stacked by topic: ' +
      `${plural(total, 'paper')} in ${CHART_MONTHS} months` +
      (total ? `, the most in ${months[busiest]} (${plural(monthTotals[busiest], 'paper')}).` : '.'),
    spec: monthlyStacked(
      values,
      TOPIC_INFO.map((t) => t.name),
      'Topic',
    ),
    table: {
      head: ['Month', ...TOPIC_INFO.map((t) => t.name), 'All topics'],
      rows: months.map((m, i) => [m, ...TOPIC_INFO.map((t) => counts.get(t.slug)!.get(m) ?? 0), monthTotals[i]]),
    },
    api: `/api/v1/papers?since=${months[0]}-01&topic=<topic>&group_by=indexed_month`,
  }
}

/** Topic page: its papers per month, and the study types of all its papers. */
export async function topicCharts(db: Db, topic: TopicInfo, today: Date): Promise<Chart[]> {
  const months = lastMonths(today)
  const [counts, types] = await Promise.all([
    monthlyByTopic(db, months, [topic]),
    paperFacets(db, { minRelevance: AGING_BIOLOGY, topic: [topic.slug] }, { group_by: 'study_type' }),
  ])
  const perMonth = months.map((m) => ({ step: m, papers: counts.get(topic.slug)!.get(m) ?? 0 }))
  const total = perMonth.reduce((n, v) => n + v.papers, 0)
  const mix = (types.group_by ?? []).map((g) => ({ label: studyTypeLabel(g.key as string | null), count: g.count }))
  const all = mix.reduce((n, v) => n + v.count, 0)
  return [
    {
      id: 'chart-monthly',
      title: `${topic.name}: papers per month, ${months[0]} to ${months[months.length - 1]}`,
      description:
        `Bars of papers about aging biology on ${topic.name.toLowerCase()} indexed each month: ` +
        `${plural(total, 'paper')} in ${CHART_MONTHS} months.`,
      spec: steps(perMonth, 'Month indexed'),
      table: { head: ['Month', 'Papers'], rows: perMonth.map((v) => [v.step, v.papers]) },
      api: `/api/v1/papers?since=${months[0]}-01&topic=${topic.slug}&group_by=indexed_month`,
    },
    {
      id: 'chart-study-types',
      title: `${topic.name}: papers by study type`,
      description: mix.length
        ? `Bars of ${plural(all, 'paper')} about aging biology on this topic by kind of study, ` +
          `the most ${mix[0].label.toLowerCase()} (${plural(mix[0].count, 'paper')}).`
        : 'No papers about aging biology on this topic yet.',
      spec: shares(mix, 'Study type', 'Papers'),
      table: { head: ['Study type', 'Papers'], rows: mix.map((v) => [v.label, v.count]) },
      api: `/api/v1/papers?topic=${topic.slug}&group_by=study_type`,
    },
  ]
}

const directionWord = (d: string | null) => (d ? d.replaceAll('_', ' ') : 'not stated')

/** Claims by organism and direction as a chart (entity and evidence pages). */
type DirectionRow = { organism: string | null; direction: string | null; claims: number }

function directionChart(id: string, title: string, rows: DirectionRow[], api?: string): Chart {
  const values = rows.map((r) => ({
    organism: r.organism ?? 'Not stated',
    direction: directionWord(r.direction),
    claims: r.claims,
  }))
  const total = values.reduce((n, v) => n + v.claims, 0)
  const byDirection = DIRECTIONS.map(
    (d) => [d, values.filter((v) => v.direction === d).reduce((n, v) => n + v.claims, 0)] as const,
  ).filter(([, n]) => n > 0)
  return {
    id,
    title,
    description:
      `Bars of ${plural(total, 'claim')} by organism, coloured by the direction of the effect: ` +
      `${byDirection.map(([d, n]) => `${n.toLocaleString('en')} ${d}`).join(', ')}.`,
    spec: directions(values),
    table: { head: ['Organism', 'Direction', 'Claims'], rows: values.map((v) => [v.organism, v.direction, v.claims]) },
    api,
  }
}

/** Entity page: its papers per year of publication, and its claims by direction and organism (null without claims). */
export async function entityCharts(db: Db, entity: { id: number; name: string; key: string }): Promise<Chart[]> {
  const [{ years, undated }, claimRows] = await Promise.all([
    entityPapersByYear(db, entity.id),
    entityClaimsByDirection(db, entity.id),
  ])
  const charts: Chart[] = []
  if (years.length) {
    // Every year from the first to the last, so a gap shows as a gap.
    const all = Array.from({ length: years[years.length - 1].year - years[0].year + 1 }, (_, i) => years[0].year + i)
    const perYear = all.map((y) => ({ step: String(y), papers: years.find((r) => r.year === y)?.papers ?? 0 }))
    const total = perYear.reduce((n, v) => n + v.papers, 0)
    charts.push({
      id: 'chart-years',
      title: `${entity.name}: papers per year of publication`,
      description:
        `Bars of ${plural(total, 'paper')} involving ${entity.name} by the year they were published, ` +
        `${all[0]} to ${all[all.length - 1]}` +
        `${undated ? `; ${plural(undated, 'paper')} without a publication date are left out` : ''}.`,
      spec: steps(perYear, 'Year published'),
      table: { head: ['Year', 'Papers'], rows: perYear.map((v) => [v.step, v.papers]) },
    })
  }
  if (claimRows.length) {
    charts.push(directionChart('chart-directions', `${entity.name}: claims by organism and direction`, claimRows))
  }
  return charts
}

/** Evidence page: its groups' claims by organism and direction (null without claims). */
export function evidenceChart(groups: EvidenceGroupRow[], subject: string, object: string): Chart | null {
  if (groups.length === 0) return null
  return directionChart(
    'chart-directions',
    `Claims about ${subject} and ${object} by organism and direction`,
    groups.map((g) => ({ organism: g.organism, direction: g.direction, claims: g.claimCount })),
    `/api/v1/evidence?${new URLSearchParams({ subject, object })}`,
  )
}
