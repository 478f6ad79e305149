/**
 * /api/intelligence: contradictions between papers and knowledge gaps, read from the snapshot the
 * intelligence job computes. Operator-only: the caller mounts this behind the operator guard.
 */
import { Elysia } from 'elysia'
import { GAP_KINDS } from '../../../pipeline/intelligence/gaps'
import { SCORING_NOTE } from '../../../pipeline/intelligence/scoring'
import { dateParam, listParam, numberParam, openApiParameters, pagingParams, parseParams } from '../../../http/params'
import { TOPICS } from '../../../taxonomy'
import { documented, errors } from '../schemas'
import { openApiBody, parseBody } from '../../../http/json-body'
import { entityParam, organismParam } from '../params'
import { pathText } from '../path-id'
import {
  ContradictionChart,
  ContradictionList,
  ContradictionOne,
  GapCharts,
  GapList,
  GapOne,
  RefreshResult,
} from './model'
import {
  contradictionChartPage,
  contradictionOne,
  contradictionPage,
  gapChartsPage,
  gapOne,
  gapPage,
  refreshNow,
  type IntelligenceContext,
} from './service'

export type { IntelligenceContext } from './service'

const contradictionParams = {
  topic: listParam(
    'Only groups with a paper in comparable opposing claims on one of these topics; their pairs are those that touch ' +
      'it.',
    TOPICS,
  ),
  entity: entityParam('Only groups whose subject or object is this entity'),
  organism: organismParam('Only groups with a pair in this organism, and only those pairs shown'),
  min_score: numberParam('Lowest group score (0 to 1).', 0, 1),
  since: dateParam('Only groups with a paper in opposing claims indexed on or after this date, and pairs with one.'),
  ...pagingParams,
}

const gapParams = {
  kind: listParam('Gap kinds.', GAP_KINDS),
  topic: listParam('Only gaps that involve papers on one of these topics.', TOPICS),
  entity: entityParam('Only gaps about this entity'),
  min_score: numberParam('Lowest gap score (0 to 1).', 0, 1),
  ...pagingParams,
}

const ID = { id: 'The id, as given in a list answer.' }

export const intelligenceModule = (ctx: IntelligenceContext) =>
  new Elysia({ name: 'admin-intelligence' })
    .get(
      '/api/intelligence/contradictions',
      ({ request }) => {
        const p = parseParams(request.url, contradictionParams)
        const filters = {
          topics: p.topic,
          entity: p.entity,
          organismKey: p.organism,
          minScore: p.min_score,
          since: p.since,
        }
        return contradictionPage(ctx, filters, p)
      },
      {
        response: { 200: documented(ContradictionList), ...errors(400, 404) },
        detail: {
          summary: 'List contradictions',
          description:
            'Pairs of claims from different papers about the same subject and object (the resolved entity, else the ' +
            'normalised words), in the same organism and comparable conditions (sex, dose, tissue and condition: ' +
            'stated alike, or stated by one claim only), pointing opposite ways (a stated direction, else the ' +
            'relation: extends_lifespan against shortens_lifespan). Grouped per subject and object, best score first ' +
            '(then id, descending); each group shows its best pairs with both claims, ' +
            "their papers and their evidence (null unless the abstract's licence is CC BY, CC0 or public domain). " +
            `${SCORING_NOTE} meta says when this was computed and whether newer claims wait for the next run.`,
          parameters: openApiParameters(contradictionParams),
        },
      },
    )
    .get(
      '/api/intelligence/contradictions/:id',
      ({ request, params }) => {
        parseParams(request.url, {})
        return contradictionOne(ctx, pathText(params.id, 'id', 64))
      },
      {
        response: { 200: documented(ContradictionOne), ...errors(400, 404) },
        detail: {
          summary: 'Get one contradiction group',
          description: 'One group, as in the list, with up to 20 of its pairs. Unknown id: 404.',
          parameters: openApiParameters({}, ID),
        },
      },
    )
    .get(
      '/api/intelligence/gaps',
      ({ request }) => {
        const p = parseParams(request.url, gapParams)
        return gapPage(ctx, { kinds: p.kind, topics: p.topic, entity: p.entity, minScore: p.min_score }, p)
      },
      {
        response: { 200: documented(GapList), ...errors(400, 404) },
        detail: {
          summary: 'List knowledge gaps',
          description:
            'Gaps computed from the corpus, best score first (then id, descending). Kinds: no_human_trial (an ' +
            'intervention that extends lifespan or healthspan in animals and that no human trial tests), ' +
            'single_paper (a finding one paper states), single_organism (a finding replicated only in one non-human ' +
            'organism), declining_attention (a hallmark or topic with under half the aging-biology papers in the ' +
            'last 30 days that its earlier rate predicts), disputed_finding (papers disagree; contradiction_id links ' +
            'the contradiction group). Each has a plain explanation, evidence counts, a score and the papers it ' +
            'rests on. Scores: no_human_trial (1 − 0.5^(animal papers/3)) × (0.6 + 0.4·min(1, (organisms − 1)/2)); ' +
            'single_paper best claim weight × (0.5 + newsworthiness/6); single_organism (1 − 0.5^(papers/2)) × ' +
            '√(best weight); ' +
            "declining_attention (1 − recent/expected) × min(1, expected/20); disputed_finding the group's score.",
          parameters: openApiParameters(gapParams),
        },
      },
    )
    .get(
      '/api/intelligence/gaps/:id',
      ({ request, params }) => {
        parseParams(request.url, {})
        return gapOne(ctx, pathText(params.id, 'id', 64))
      },
      {
        response: { 200: documented(GapOne), ...errors(400, 404) },
        detail: {
          summary: 'Get one gap',
          description: 'One gap, as in the list. Unknown id: 404.',
          parameters: openApiParameters({}, ID),
        },
      },
    )
    .get(
      '/api/intelligence/charts/contradictions',
      ({ request }) => {
        const p = parseParams(request.url, contradictionParams)
        const filters = {
          topics: p.topic,
          entity: p.entity,
          organismKey: p.organism,
          minScore: p.min_score,
          since: p.since,
        }
        return contradictionChartPage(ctx, filters, p)
      },
      {
        response: { 200: documented(ContradictionChart), ...errors(400, 404) },
        detail: {
          summary: 'Chart the contradictions of a list page',
          description:
            'The groups of the page GET /api/intelligence/contradictions answers with the same parameters (filters, ' +
            'cursor and limit), as one chart drawn on the server: a bar per group, best score first, split into its ' +
            'claims for an increase and for a decrease (claims.increase and claims.decrease of each group). With a ' +
            'title, a text alternative, the numbers as a table and the SVG for a wide screen and for a phone.',
          parameters: openApiParameters(contradictionParams),
        },
      },
    )
    .get(
      '/api/intelligence/charts/gaps',
      ({ request }) => {
        const p = parseParams(request.url, gapParams)
        return gapChartsPage(ctx, { kinds: p.kind, topics: p.topic, entity: p.entity, minScore: p.min_score }, p)
      },
      {
        response: { 200: documented(GapCharts), ...errors(400, 404) },
        detail: {
          summary: 'Sparklines of the declining-attention gaps of a list page',
          description:
            'For each declining_attention gap on the page GET /api/intelligence/gaps answers with the same ' +
            'parameters, its series (papers per period, oldest first, the last 30 days in red) as a small chart ' +
            'drawn on the server, named by gap_id, with a title, a text alternative, the numbers as a table and the ' +
            'SVG for a wide screen and for a phone. Gaps of other kinds have no series and no chart.',
          parameters: openApiParameters(gapParams),
        },
      },
    )
    .post(
      '/api/intelligence/refresh',
      async ({ request, body }) => {
        parseParams(request.url, {})
        parseBody(request, body, {})
        return refreshNow(ctx)
      },
      {
        response: { 200: documented(RefreshResult), ...errors(400, 404, 409) },
        detail: {
          summary: 'Recompute contradictions and gaps now',
          description:
            'Runs the intelligence job at once (it also runs every 10 minutes when claims or papers changed) and ' +
            'answers when it is done, with its counts. 409 conflict while a run is in progress. Takes no parameters ' +
            'and no body.',
          requestBody: openApiBody({}, 'No body: an empty JSON object at most.') as never,
        },
      },
    )
