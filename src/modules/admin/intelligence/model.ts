/** TypeBox schemas of /api/intelligence: contradiction groups and their pairs, knowledge gaps. */
import { t } from 'elysia'
import { GAP_KINDS } from '../../../pipeline/intelligence/gaps'
import { STUDY_TYPES, TOPICS } from '../../../taxonomy'
import { Claim, EntityRef, paperRefFields } from '../../v1/model'
import { Enum, Integer, Nullable, Pagination, SnapshotMeta } from '../schemas'

const Score = t.Number({ minimum: 0, maximum: 1 })
const Url = t.String({ format: 'uri' })
const DateString = t.String({ format: 'date' })

/** A subject or object as grouped: the resolved entity's type:key, else text:<normalised text>. */
export const Side = t.Object({
  key: t.String({ description: 'type:key of the resolved entity, or text: and the normalised words when unresolved.' }),
  label: t.String(),
  entity: Nullable(EntityRef),
})

const { id, title, doi, journal, published_date, preprint, url, site_url, indexed_date } = paperRefFields

export const PairPaper = t.Object({
  id,
  title,
  doi,
  journal,
  published_date,
  preprint,
  url,
  site_url,
  indexed_date,
  study_type: Nullable(Enum(STUDY_TYPES)),
  topic: Nullable(Enum(TOPICS)),
})

const PairSide = t.Object({
  weight: t.Number({ minimum: 0, maximum: 1, description: "The claim's weight (see meta.scoring)." }),
  claim: Claim,
  paper: PairPaper,
})

export const Organism = t.Object({ key: t.String(), name: t.String() })

export const ContradictionPair = t.Object({
  score: Score,
  organism: Organism,
  conditions: t.Record(t.String(), t.String(), {
    description:
      'Conditions (sex, dose, tissue, condition) both claims state, alike; any other condition is stated by at most ' +
      'one of them.',
  }),
  increase: PairSide,
  decrease: PairSide,
})

export const ContradictionGroup = t.Object({
  id: t.String({ pattern: '^c[0-9a-f]{16}$' }),
  subject: Side,
  object: Side,
  score: Score,
  papers: t.Object(
    { increase: Integer({ minimum: 1 }), decrease: Integer({ minimum: 1 }) },
    { description: 'Papers with claims in a comparable opposing pair, on each side.' },
  ),
  claims: t.Object({ increase: Integer({ minimum: 1 }), decrease: Integer({ minimum: 1 }) }),
  organisms: t.Array(Organism),
  topics: t.Array(Enum(TOPICS)),
  latest_date: DateString,
  pairs: t.Array(ContradictionPair, {
    description: 'The best pairs that match the filters (at most 3 in a list, 20 for one group), best first.',
  }),
  url: Url,
})

export const ContradictionList = t.Object({
  data: t.Array(ContradictionGroup),
  pagination: Pagination,
  meta: SnapshotMeta,
})
export const ContradictionOne = t.Object({ data: ContradictionGroup, meta: SnapshotMeta })

const GapPaper = t.Object({
  id,
  title,
  journal,
  published_date,
  indexed_date,
  url,
  site_url,
  study_type: Nullable(Enum(STUDY_TYPES)),
})

export const Gap = t.Object({
  id: t.String({ pattern: '^g[0-9a-f]{16}$' }),
  kind: Enum(GAP_KINDS),
  title: t.String(),
  explanation: t.String(),
  score: Score,
  counts: t.Record(t.String(), Integer({ minimum: 0 }), {
    description: 'Evidence counts; keys by kind (papers, claims, organisms, animal_papers, recent_papers, ...).',
  }),
  subject: Nullable(Side),
  object: Nullable(Side),
  topics: t.Array(Enum(TOPICS)),
  papers: t.Array(GapPaper, { description: 'The papers the gap rests on, best first (at most 3).' }),
  contradiction_id: Nullable(t.String()),
  contradiction_url: Nullable(Url),
  series: Nullable(
    t.Object(
      {
        period_days: Integer({ minimum: 1, description: 'Days per period.' }),
        recent_periods: Integer({
          minimum: 1,
          description: 'How many of the last periods make up the recent window (the last 30 days).',
        }),
        periods: t.Array(
          t.Object({
            start: DateString,
            end: DateString,
            papers: Integer({ minimum: 0 }),
          }),
          {
            description:
              'Oldest first; the last ends on the reference date. The oldest starts no earlier than the first paper.',
          },
        ),
      },
      {
        description:
          'declining_attention only (null for the other kinds): the aging-biology papers (relevance 2 or more) on ' +
          'the topic or hallmark per period, the counts the gap was computed from. The last recent_periods sum to ' +
          'counts.recent_papers; the others to counts.history_papers when the history fits in the 36 periods kept. ' +
          'Drawn as a sparkline by /api/intelligence/charts/gaps.',
      },
    ),
  ),
})

export const GapList = t.Object({ data: t.Array(Gap), pagination: Pagination, meta: SnapshotMeta })
export const GapOne = t.Object({ data: Gap, meta: SnapshotMeta })

export const RefreshResult = t.Object({
  data: t.Object({
    computed_at: t.String({ format: 'date-time' }),
    duration_ms: Integer({ minimum: 0 }),
    counts: t.Record(t.String(), Integer({ minimum: 0 })),
  }),
})

/** A chart drawn on the server, as /api/overview/charts gives them. */
const ChartAnswer = t.Object({
  id: t.String({ description: "Unique on the page: the SVG's title and description ids start with it." }),
  title: t.String(),
  description: t.String({ description: 'The text alternative: what the chart shows, with its totals.' }),
  table: t.Object(
    {
      head: t.Array(t.String()),
      rows: t.Array(t.Array(t.Union([t.String(), Integer({ minimum: 0 })]))),
    },
    { description: 'The numbers the chart draws, a row per period or group.' },
  ),
  svg: t.Object({
    wide: t.String({
      description: 'SVG markup drawn for a wide screen, labelled by <title> and <desc>, sized by the page.',
    }),
    narrow: t.String({ description: 'The same drawn for a phone.' }),
  }),
})

export const ContradictionChart = t.Object({ data: ChartAnswer, meta: SnapshotMeta })
export const GapCharts = t.Object({
  data: t.Array(t.Composite([ChartAnswer, t.Object({ gap_id: t.String({ pattern: '^g[0-9a-f]{16}$' }) })])),
  meta: SnapshotMeta,
})
