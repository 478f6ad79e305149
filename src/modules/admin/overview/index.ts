/** GET /api/overview/charts (operators): the console overview's charts, with their numbers and their SVG. */
import { Elysia, t } from 'elysia'
import { parseParams } from '../../../http/params'
import type { AdminContext } from '../context'
import { documented, errors, Integer } from '../schemas'
import { OVERVIEW_DAYS, overviewCharts } from './service'

const ChartAnswer = t.Object({
  id: t.String({ description: "Unique on the page: the SVG's title and description ids start with it." }),
  title: t.String(),
  description: t.String({ description: 'The text alternative: what the chart shows, with its totals.' }),
  table: t.Object(
    {
      head: t.Array(t.String()),
      rows: t.Array(t.Array(t.Union([t.String(), Integer({ minimum: 0 })]))),
    },
    { description: 'The numbers the chart draws, a row per day or category.' },
  ),
  svg: t.Object({
    wide: t.String({
      description: 'SVG markup drawn for a wide screen (680 px), labelled by <title> and <desc>, sized by the page.',
    }),
    narrow: t.String({ description: 'The same drawn for a phone (320 px).' }),
  }),
})

export const OverviewCharts = t.Object({ data: t.Array(ChartAnswer) })

export const overviewModule = ({ db, config, now }: AdminContext) =>
  new Elysia({ name: 'admin-overview' }).get(
    '/api/overview/charts',
    async ({ request }) => {
      parseParams(request.url, {})
      return { data: await overviewCharts(db, now(), config.reviewConfidenceThreshold) }
    },
    {
      response: { 200: documented(OverviewCharts), ...errors(400) },
      detail: {
        summary: 'Overview charts',
        description:
          "Four charts for the console's overview, each with a title, a text alternative, its numbers " +
          'and its SVG (drawn on the server): papers harvested (stored), judged and corrected by an editor per ' +
          `UTC day over the last ${OVERVIEW_DAYS} days; job runs per day by outcome; the review queue (below the ` +
          'confidence threshold, and the audit sample); sources by health (working, failing, never fetched, ' +
          'disabled).',
      },
    },
  )
