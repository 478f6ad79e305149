/**
 * Briefs: POST /api/generate-brief (a date window, optionally by topic), POST
 * /api/generate-brief/tag-based (topics, entities, source tags), GET /api/briefs and
 * /api/briefs/{id}. Operator-only: the caller mounts this behind the operator guard.
 */
import { Elysia } from 'elysia'
import { generateBrief, type BriefRequest, type BriefsContext } from '../../../pipeline/briefs/service'
import { getBrief, listBriefs } from '../../../pipeline/briefs/store'
import { invalidParameter, notFound } from '../../../http/errors'
import { TOPICS } from '../../../taxonomy'
import { pager } from '../../../http/pager'
import { listParam, openApiParameters, pagingParams, parseParams } from '../../../http/params'
import {
  dateField,
  enumField,
  listField,
  openApiBody,
  optional,
  parseBody,
  refined,
  stringField,
  type BodySpec,
  type ParsedBody,
} from '../../../http/json-body'
import { documented, errors } from '../schemas'
import { entityMessage, parseEntityKey } from '../params'
import { pathId } from '../path-id'
import { BRIEF_KINDS, BriefList, BriefOne } from './model'
import { briefUrl, serializeBrief, serializeBriefSummary } from './serialize'

export type BriefsModuleContext = BriefsContext & {
  /** The signed-in operator's account id, from the request context the operator guard resolved; null when unknown. */
  accountOf?: (context: Record<string, unknown>) => number | null
}

const topicsField = optional(listField('Topic slugs.', enumField('A topic slug.', TOPICS), { max: TOPICS.length }))

/** Text as typed, without the spaces around it (so " senolytics " is the tag "senolytics"). */
const trimmedText = (description: string, max: number) =>
  refined(stringField(description, { max }), (value) => value.trim())

const windowFields = {
  since: optional(
    dateField('First day of the window (UTC). Default: 6 days before until for a brief, 29 for a tag-based one'),
  ),
  until: optional(dateField('Last day of the window (UTC). Default: today')),
  title: optional(trimmedText('Title to give the brief instead of the written one.', 200)),
}

const windowBody = { ...windowFields, topics: topicsField }
const tagBody = {
  ...windowFields,
  topics: topicsField,
  entities: optional(
    listField(
      'Entities as type:key (e.g. intervention:CHEBI:9168).',
      refined(stringField('An entity as type:key.', { max: 300 }), (value, name) => {
        const key = parseEntityKey(value)
        if (!key) throw invalidParameter(entityMessage(name, value))
        return key
      }),
      { max: 20 },
    ),
  ),
  source_tags: optional(
    listField(
      'Tags of RSS sources (rss_sources.tags): their articles are included.',
      trimmedText('A source tag.', 100),
      { max: 20 },
    ),
  ),
}

const listParams = { kind: listParam('Brief kinds.', BRIEF_KINDS), ...pagingParams }

const CREATED =
  'The brief, stored (201, with Location). 404 when no analysed paper or article matches; 503 when the configured ' +
  'model fails to write a usable brief (nothing is stored). Every statement cites, by ref, the papers (P<n>) and ' +
  'feed articles (A<n>) in ' +
  "citations; a model's citations to anything it was not given are dropped, and its statements left without any are " +
  "dropped. Written by the model when LLM_BASE_URL is set (with the operator's current `brief` prompt), else " +
  'composed by the built-in ' +
  'analyzer from stories, extracted claims and feed analyses, grouped by topic and finding.'

export const briefsModule = (ctx: BriefsModuleContext) => {
  const create = async (
    kind: BriefRequest['kind'],
    spec: BodySpec,
    context: { body: unknown; request: Request; set: { status?: number | string; headers: Record<string, unknown> } },
  ) => {
    parseParams(context.request.url, {})
    const body = parseBody(context.request, context.body, spec) as Partial<ParsedBody<typeof tagBody>>
    const brief = await generateBrief(ctx, {
      kind,
      since: body.since,
      until: body.until,
      topics: body.topics,
      entities: body.entities,
      sourceTags: body.source_tags,
      title: body.title,
      createdBy: ctx.accountOf?.(context as unknown as Record<string, unknown>) ?? null,
    })
    context.set.status = 201
    context.set.headers.location = briefUrl(ctx.baseUrl, brief.id)
    return { data: serializeBrief(brief, ctx.baseUrl) }
  }
  return new Elysia({ name: 'admin-briefs' })
    .post('/api/generate-brief', (context) => create('comprehensive', windowBody, context), {
      response: { 201: documented(BriefOne), ...errors(400, 404) },
      detail: {
        requestBody: openApiBody(windowBody, 'All fields optional: the last 7 days, every topic.') as never,
        summary: 'Generate a brief from the papers and articles analysed in a window',
        description:
          `The most newsworthy aging-biology papers (relevance 2 or more) indexed in the window, ` +
          `optionally on some topics, and the feed articles analysed in it. ${CREATED}`,
      },
    })
    .post('/api/generate-brief/tag-based', (context) => create('tag_based', tagBody, context), {
      response: { 201: documented(BriefOne), ...errors(400, 404) },
      detail: {
        requestBody: openApiBody(
          tagBody,
          'At least one of topics, entities, source_tags. Default window: the last 30 days.',
        ) as never,
        summary: 'Generate a brief from the items that carry selected tags',
        description:
          'Papers on one of the topics or linked to one of the entities, and feed articles from sources with one of ' +
          'the ' +
          `source tags (or whose analysis names one of the entities or topics), in the window; an item needs only ` +
          `one of the tags. ${CREATED}`,
      },
    })
    .get(
      '/api/briefs',
      async ({ request }) => {
        const p = parseParams(request.url, listParams)
        const page = pager(ctx.secret, 'admin-briefs', { kind: p.kind }, p)
        const rows = await listBriefs(ctx.db, { kinds: p.kind }, page.limit, page.after ? Number(page.after[0]) : null)
        const { items, pagination } = page.page(rows, (b) => [b.id])
        return { data: items.map((b) => serializeBriefSummary(b, ctx.baseUrl)), pagination }
      },
      {
        response: { 200: documented(BriefList), ...errors(400, 404) },
        detail: {
          summary: 'List briefs',
          description: 'Stored briefs, newest first, without their text (GET /api/briefs/{id} has it).',
          parameters: openApiParameters(listParams),
        },
      },
    )
    .get(
      '/api/briefs/:id',
      async ({ request, params }) => {
        parseParams(request.url, {})
        const id = pathId(params.id)
        const brief = await getBrief(ctx.db, id)
        if (!brief) throw notFound(`no brief ${id}`)
        return { data: serializeBrief(brief, ctx.baseUrl) }
      },
      {
        response: { 200: documented(BriefOne), ...errors(400, 404) },
        detail: {
          summary: 'Get a brief',
          description: 'One stored brief with its statements, citations and text. Unknown id: 404.',
          parameters: openApiParameters({}, { id: 'Brief id.' }),
        },
      },
    )
}
