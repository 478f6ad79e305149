/**
 * Charts of contradictions and knowledge gaps, for the console (through /api/intelligence/charts/…)
 * and the site's topic and hallmark pages: a declining-attention gap's papers per period as a
 * sparkline, and the claims each contradiction group holds for an increase and for a decrease.
 */
import type { Db } from '../../../db/client'
import type { GapSeries } from '../../../db/schema'
import { decliningAttentionGap } from '../../../pipeline/intelligence/gaps'
import type { Chart } from './figure'
import { directions, sparkline } from './specs'

const plural = (n: number, noun: string) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`

/** The two windows a declining-attention gap compares, as the sparkline's points and table name them. */
export const ATTENTION_WINDOWS: [string, string] = ['earlier', 'last 30 days']

/** What a sparkline needs of a gap: what it is about, its series and the rate it was compared with. */
export type AttentionGap = { id: string; subject: string; series: GapSeries; expectedRecent: number | null }

/** A declining-attention gap's papers per period, oldest first, the recent window in red. */
export function attentionChart(gap: AttentionGap, id = `chart-gap-${gap.id}`): Chart {
  const { periods, period_days: days, recent_periods: recent } = gap.series
  const recentFrom = periods.length - recent
  const values = periods.map((p, i) => ({
    period: `${p.start} to ${p.end}`,
    papers: p.papers,
    window: ATTENTION_WINDOWS[i >= recentFrom ? 1 : 0],
  }))
  const recentPapers = values.slice(recentFrom).reduce((n, v) => n + v.papers, 0)
  const earlierPapers = values.slice(0, recentFrom).reduce((n, v) => n + v.papers, 0)
  const span = periods.length ? `${periods[0].start} to ${periods[periods.length - 1].end}` : ''
  return {
    id,
    title: `${gap.subject}: little recent work; papers per ${days} days, ${span}`,
    description:
      `A line of papers about aging biology on ${gap.subject} per ${days} days: ` +
      `${plural(earlierPapers, 'paper')} in the ${plural(recentFrom, 'earlier period')}, ` +
      `${plural(recentPapers, 'paper')} in the last ${recent} (the last 30 days, in red)` +
      (gap.expectedRecent !== null ? `, where the earlier rate predicts about ${gap.expectedRecent}.` : '.'),
    spec: sparkline(values, ATTENTION_WINDOWS),
    table: {
      head: ['From', 'To', 'Papers', 'Window'],
      rows: periods.map((p, i) => [p.start, p.end, p.papers, values[i].window]),
    },
    widths: { wide: 280, narrow: 240 },
  }
}

/** What the contradictions chart needs of a group (the API's shape). */
export type ContradictionBars = {
  id: string
  subject: { label: string }
  object: { label: string }
  claims: { increase: number; decrease: number }
}

/** Claims for an increase and for a decrease in each contradiction group, in the order given (best score first). */
export function contradictionChart(groups: ContradictionBars[], id = 'chart-contradictions'): Chart {
  const seen = new Map<string, number>()
  const labels = groups.map((g) => {
    const label = `${g.subject.label} → ${g.object.label}`
    seen.set(label, (seen.get(label) ?? 0) + 1)
    return label
  })
  // Two groups may read alike (different keys, one label): their ids tell them apart.
  const rows = groups.map((g, i) => (seen.get(labels[i])! > 1 ? `${labels[i]} (${g.id})` : labels[i]))
  const values = groups.flatMap((g, i) => [
    { group: rows[i], direction: 'increase', claims: g.claims.increase },
    { group: rows[i], direction: 'decrease', claims: g.claims.decrease },
  ])
  const total = (d: 'increase' | 'decrease') => groups.reduce((n, g) => n + g.claims[d], 0)
  return {
    id,
    title: 'Claims on each side of the contradictions listed',
    description: groups.length
      ? `Bars of claims in ${plural(groups.length, 'contradiction group')}, best score first, split by the direction ` +
        `of the effect: ` +
        `${total('increase').toLocaleString('en')} for an increase, ${total('decrease').toLocaleString('en')} for a ` +
        `decrease.`
      : 'No contradiction groups match.',
    spec: directions(values, {
      field: 'group',
      title: 'Subject → object',
      sort: rows,
      directions: ['increase', 'decrease'],
    }),
    table: {
      head: ['Subject → object', 'Claims for an increase', 'Claims for a decrease'],
      rows: groups.map((g, i) => [rows[i], g.claims.increase, g.claims.decrease]),
    },
  }
}

/**
 * The site's topic and hallmark pages: the sparkline of the subject's declining-attention gap, when
 * the intelligence job found one ('topic:<slug>' or 'hallmark:<key>'); null otherwise.
 */
export async function attentionChartOf(db: Db, subjectKey: string): Promise<Chart | null> {
  const gap = await decliningAttentionGap(db, subjectKey)
  if (!gap?.series) return null
  return attentionChart(
    {
      id: gap.id,
      subject: gap.subjectLabel ?? subjectKey,
      series: gap.series,
      expectedRecent: gap.counts.expected_recent ?? null,
    },
    'chart-attention',
  )
}
