/**
 * Reading papers, for every interface (/api/v1, search, the site, the admin views): the filtered,
 * keyset-paged list and the full record of one paper.
 */
import { eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { anyOf } from '../../queries/any-of'
import { papers, type stories } from '../../db/schema'
import type { ClaimRow } from '../claims/claim-row'
import { Conditions, preparedStatement, type Timestamp } from '../../queries/prepared'
import { windowedList } from '../../queries/windowed-page'
import {
  DEFAULT_PAPER_SORT,
  PAPER_ORDERS,
  PAPER_SORTS,
  positionRanges,
  type PaperPosition,
  type PaperSort,
} from './paper-order'
import { expandedTsquery, matchesQuery, type NameExpansion } from '../../queries/tsquery'
import { OPEN_LICENSES } from '../../taxonomy'

/**
 * A paper as the interfaces read it: every column but the analysis-only and search ones. Its
 * timestamps are Dates where the query builder read them, PostgreSQL's text where a prepared statement did.
 */
export type PaperRow = Omit<
  typeof papers.$inferSelect,
  | 'meshHeadings'
  | 'keywords'
  | 'chemicals'
  | 'createdAt'
  | 'updatedAt'
  | 'searchVector'
  | 'titleVector'
  | 'judgedAt'
  | 'extractedAt'
> & { judgedAt: Timestamp | null; extractedAt: Timestamp | null }
export type StoryRow = Omit<typeof stories.$inferSelect, 'publishedAt'> & { publishedAt: Timestamp }

export type PaperFilters = {
  /** indexed_date bounds (inclusive). */
  since?: string
  until?: string
  /** published_date bounds (inclusive); a paper without a publication date passes neither. */
  publishedSince?: string
  publishedUntil?: string
  minRelevance: number
  /** Relevance below this (exclusive); not a request parameter: the counts split an off-grain min_relevance with it. */
  relevanceBelow?: number
  studyType?: string[]
  topic?: string[]
  preprint?: boolean
  q?: string
  /** Names in `q` matched by their entity's other names as well, as /search matches them (src/search/synonyms.ts). */
  expansions?: readonly NameExpansion[]
}

/**
 * The abstract only where its licence lets us serve it (the serializers apply the same rule): half
 * the corpus is under licences that do not, and reading, sending and decoding those abstracts was
 * a large share of a list page's cost.
 */
const servableAbstract = sql<
  string | null
>`case when ${inArray(papers.abstractLicense, [...OPEN_LICENSES])} then ${papers.abstract} end`

/** Every column the API serves; analysis-only columns (MeSH, keywords, chemicals) stay behind. */
export const paperColumns = {
  id: papers.id,
  source: papers.source,
  doi: papers.doi,
  title: papers.title,
  authors: papers.authors,
  journal: papers.journal,
  publishedDate: papers.publishedDate,
  indexedDate: papers.indexedDate,
  preprint: papers.preprint,
  publicationTypes: papers.publicationTypes,
  url: papers.url,
  abstract: servableAbstract,
  abstractLicense: papers.abstractLicense,
  relevance: papers.relevance,
  relevanceConfidence: papers.relevanceConfidence,
  newsworthiness: papers.newsworthiness,
  studyType: papers.studyType,
  studyTypeConfidence: papers.studyTypeConfidence,
  topic: papers.topic,
  topicConfidence: papers.topicConfidence,
  promotional: papers.promotional,
  judgementModel: papers.judgementModel,
  judgementPromptVersion: papers.judgementPromptVersion,
  judgedAt: papers.judgedAt,
  extractedAt: papers.extractedAt,
}

/**
 * The WHERE conditions shared by /papers and /search: every /papers filter applies to both
 * (docs/contract-decisions.md).
 */
export function paperConditions(f: PaperFilters): SQL[] {
  const conditions: SQL[] = []
  // Unjudged papers have a null relevance, so any min_relevance > 0 leaves them out.
  if (f.minRelevance > 0) conditions.push(gte(papers.relevance, f.minRelevance))
  if (f.relevanceBelow !== undefined) conditions.push(lt(papers.relevance, f.relevanceBelow))
  if (f.since) conditions.push(gte(papers.indexedDate, f.since))
  if (f.until) conditions.push(lte(papers.indexedDate, f.until))
  if (f.publishedSince) conditions.push(gte(papers.publishedDate, f.publishedSince))
  if (f.publishedUntil) conditions.push(lte(papers.publishedDate, f.publishedUntil))
  if (f.studyType) conditions.push(anyOf(papers.studyType, f.studyType))
  if (f.topic) conditions.push(anyOf(papers.topic, f.topic))
  if (f.preprint !== undefined) conditions.push(eq(papers.preprint, f.preprint))
  if (f.q) conditions.push(matchesQuery(f.q, f.expansions))
  return conditions
}

export type PaperListRow = PaperRow & { storyHeadline: string | null; storyDek: string | null }

/**
 * paperConditions as fragments of a prepared statement's WHERE clause (`p` is papers). `queryOnce`:
 * q's tsquery as an InitPlan, built once per execution. In a generic plan (a prepared statement run
 * often) geroscope_tsquery($n) is not folded to a constant, so each row the scan rechecks called it
 * again: a bounded count over a common word took 240 ms instead of 58. Only for statements whose
 * path the query does not choose (counts, which read every match; a page's windows, which walk the
 * index): the InitPlan hides the query from the planner's estimate, which a sorted page's choice of
 * index needs.
 */
export function paperConditionsText(f: PaperFilters, where = new Conditions(), queryOnce = false): Conditions {
  return paperFilterText(f, paperDatesText(f, where), queryOnce)
}

/**
 * The filter's dates that bound the walk of the list's index in `sort` (src/resources/papers/paper-order.ts), where a
 * page's walk can start: since and until on papers_indexed_idx for the default order, published_since and
 * published_until on the publication date's index for published_date, none for newsworthiness.
 */
export function paperDatesText(
  f: PaperFilters,
  where = new Conditions(),
  sort: PaperSort = DEFAULT_PAPER_SORT,
): Conditions {
  if (sort === 'indexed_date') return indexedDatesText(f, where)
  if (sort === 'published_date') return publishedDatesText(f, where)
  return where
}

function indexedDatesText(f: PaperFilters, where: Conditions): Conditions {
  if (f.since) where.add('p.indexed_date >= $?::date', f.since)
  if (f.until) where.add('p.indexed_date <= $?::date', f.until)
  return where
}

/**
 * Publication dates, written as the publication order's key (a range of its index, for a count or a page planned
 * for its values too): a paper without a date sorts as -infinity, which the upper bound's second condition keeps out.
 */
function publishedDatesText(f: PaperFilters, where: Conditions): Conditions {
  const { key } = PAPER_ORDERS.published_date
  if (f.publishedSince) where.add(`${key} >= $?::date`, f.publishedSince)
  if (f.publishedUntil) where.add(`${key} <= $?::date`, f.publishedUntil).add(`${key} > '-infinity'::date`)
  return where
}

/** The filter's conditions but the dates paperDatesText gives for `sort`. */
export function paperFilterText(
  f: PaperFilters,
  where = new Conditions(),
  queryOnce = false,
  sort: PaperSort = DEFAULT_PAPER_SORT,
): Conditions {
  if (sort !== 'indexed_date') indexedDatesText(f, where)
  if (sort !== 'published_date') publishedDatesText(f, where)
  if (f.minRelevance > 0) where.add('p.relevance >= $?', f.minRelevance)
  if (f.relevanceBelow !== undefined) where.add('p.relevance < $?', f.relevanceBelow)
  if (f.studyType) where.add('p.study_type = any($?::text[])', [...f.studyType])
  if (f.topic) where.add('p.topic = any($?::text[])', [...f.topic])
  if (f.preprint !== undefined) where.add('p.preprint = $?::boolean', f.preprint)
  if (f.q) {
    const query = expandedTsquery(f.q, f.expansions)
    where.add(
      queryOnce ? `p.search_vector @@ (select ${query.text})` : `p.search_vector @@ ${query.text}`,
      ...query.values,
    )
  }
  return where
}

/**
 * A paper row read by PAPER_SELECT: its timestamps are text, which the serializers write as ISO 8601 (isoTimestamp).
 */
export type PaperTextRow = Omit<PaperRow, 'judgedAt' | 'extractedAt'> & {
  judgedAt: string | null
  extractedAt: string | null
}

/** A list's paper as PAPER_SELECT reads it, with its story's headline and dek (`s`). */
export type PaperListTextRow = PaperTextRow & { storyHeadline: string | null; storyDek: string | null }

/**
 * The list's pages (src/queries/windowed-page.ts), one set of statements per order
 * (src/resources/papers/paper-order.ts).
 * A filtered page no window could fill is every paper the
 * filter passes, sorted, planned for its values so that PostgreSQL reads them from the index that suits them:
 * the text index for `q`, whose words it cannot price (it prices any word its statistics do not list as held by
 * one paper in a few hundred, and walked every paper for a word none holds).
 */
const paperLists = Object.fromEntries(
  PAPER_SORTS.map((sort) => [
    sort,
    windowedList<PaperListTextRow>({
      rowsFrom: (source) => paperListFrom(source),
      table: 'papers',
      alias: 'p',
      newest: PAPER_ORDERS[sort].newest,
      sorted: PAPER_ORDERS[sort].sorted,
    }),
  ]),
) as Record<PaperSort, ReturnType<typeof windowedList<PaperListTextRow>>>

/** The papers in `range` (its conditions made afresh by each call), counted up to `cap`. */
export const papersInRange = paperLists.indexed_date.countRange

/**
 * Papers in `sort`'s order (newest first by indexed_date by default), then id; `after` is the last row of the
 * previous page (its key as PAPER_ORDERS[sort].keyOf reads it).
 */
export async function listPapers(
  db: Db,
  filters: PaperFilters,
  limit: number,
  position: PaperPosition | { indexedDate: string; id: string } | null,
  sort: PaperSort = DEFAULT_PAPER_SORT,
): Promise<PaperListRow[]> {
  // The site's topic pages (src/modules/site) give the default order's position by its column's name.
  const after = position && ('key' in position ? position : { key: position.indexedDate, id: position.id })
  const licences = [[...OPEN_LICENSES]]
  const page = (position: () => Conditions, n: number) =>
    paperLists[sort].read(
      db,
      licences,
      {
        range: () => paperDatesText(filters, position(), sort),
        filtered: paperFilterText(filters, undefined, true, sort), // planned once: q's tsquery built once per run
        sortedWhere: () => paperFilterText(filters, paperDatesText(filters, position(), sort), false, sort),
        dearTest: Boolean(filters.q),
      },
      n,
    )
  if (!after) return page(() => new Conditions(), limit + 1)
  // Two index ranges (src/queries/keyset.ts): the rest of the rows tied on the key, then the ones below it.
  const [tiedRange, restRange] = positionRanges(PAPER_ORDERS[sort], after)
  const tied = await page(tiedRange, limit + 1)
  if (tied.length > limit) return tied
  const rest = await page(restRange, limit + 1 - tied.length)
  return tied.concat(rest)
}

/** `/papers/{id}` accepts ids case-insensitively: MED-123, med-123 and Med-123 are one paper. */
export function normalisePaperId(id: string): string | null {
  const match = /^(med|ppr)-(\d{1,12})$/i.exec(id)
  return match ? `${match[1].toUpperCase()}-${match[2]}` : null
}

/**
 * The paper's columns as `paperColumns` reads them, in SQL text for prepared statements: the
 * abstract only under an open licence (its one value, the open licences), dates and timestamps as text
 * (src/queries/prepared.ts).
 */
export const PAPER_SELECT =
  `p.id, p.source, p.doi, p.title, p.authors, p.journal, p.published_date::text as ` +
  `"publishedDate",
  p.indexed_date::text as "indexedDate", p.preprint, p.publication_types as "publicationTypes", p.url,
  case when p.abstract_license = any($?::text[]) then p.abstract end as abstract, p.abstract_license as ` +
  `"abstractLicense",
  p.relevance, p.relevance_confidence as "relevanceConfidence", p.newsworthiness, p.study_type as "studyType",
  p.study_type_confidence as "studyTypeConfidence", p.topic, p.topic_confidence as "topicConfidence", p.promotional,
  p.judgement_model as "judgementModel", p.judgement_prompt_version as "judgementPromptVersion",
  p.judged_at::text as "judgedAt", p.extracted_at::text as "extractedAt"`

/**
 * A list's papers with their stories' headlines (PaperListTextRow) from `papers`, for a WHERE clause over `p` to
 * follow.
 */
const paperListFrom = (papers: string) => `select ${PAPER_SELECT}, s.headline as "storyHeadline", s.dek as "storyDek"
from ${papers} p left join stories s on s.paper_id = p.id`

export const PAPER_LIST_FROM = paperListFrom('papers')

/**
 * The JSON of a claim row as `selectClaims` reads it (claim, subjectEntity, objectEntity); `c` claims, `se`/`oe`
 * entities.
 */
export const CLAIM_ROW_JSON =
  `json_build_object(
  'claim', json_build_object('id', c.id, 'paperId', c.paper_id, 'subjectText', c.subject_text, 'subjectEntityId', ` +
  `c.subject_entity_id,
    'relation', c.relation, 'objectText', c.object_text, 'objectEntityId', c.object_entity_id, 'organism', c.organism,
    'context', c.context, 'direction', c.direction, 'magnitude', c.magnitude, 'evidence', c.evidence,
    'confidence', c.confidence, 'createdAt', c.created_at::text),
  'subjectEntity', case when se.id is not null then json_build_object('type', se.type, 'key', se.key, 'name', ` +
  `se.name) end,
  'objectEntity', case when oe.id is not null then json_build_object('type', oe.type, 'key', oe.key, 'name', ` +
  `oe.name) end)`

/** One entity of a paper's detail, with its role and the detail its mention gave. */
export type PaperEntityRow = {
  type: string
  key: string
  name: string
  ids: Record<string, string>
  role: string
  detail: Record<string, unknown> | null
}

/** The entities of paper `p` as json rows (PaperEntityRow), in the order the detail lists them. */
const PAPER_ENTITIES_JSON =
  `coalesce((select json_agg(json_build_object('type', e.type, 'key', e.key, 'name', ` +
  `e.name, 'ids', e.ids, 'role', pe.role,
      'detail', pe.detail) order by e.type, e.key, pe.role)
    from paper_entities pe join entities e on e.id = pe.entity_id where pe.paper_id = p.id), '[]'::json)`

/** The claims of paper `p` as json rows (ClaimRow, createdAt as text), newest first. */
const PAPER_CLAIMS_JSON =
  `coalesce((select json_agg(${CLAIM_ROW_JSON} order by c.created_at desc, c.id desc)
    from claims c left join entities se on se.id = c.subject_entity_id left join entities oe on oe.id = ` +
  `c.object_entity_id
    where c.paper_id = p.id), '[]'::json)`

/** A paper's full record as PAPER_DETAIL_SELECT reads it. */
export type PaperDetailRow = PaperTextRow & {
  story: StoryRow | null
  upvotes: number
  entities: PaperEntityRow[]
  claims: ClaimRow[]
}

/**
 * The columns of a paper's full record (`p`, the open licences' `$?` first): the paper, its story, upvote count,
 * entities and claims (each as json, in the orders the five separate queries used). Shared with the stored
 * documents (src/documents/papers.ts), which read many papers' records at once.
 */
export const PAPER_DETAIL_SELECT = `${PAPER_SELECT},
  (select json_build_object('paperId', s.paper_id, 'headline', s.headline, 'dek', s.dek, 'body', s.body,
      'whyItMatters', s.why_it_matters, 'caveats', s.caveats, 'support', s.support, 'model', s.model,
      'publishedAt', s.published_at::text)
    from stories s where s.paper_id = p.id) as story,
  (select count(*)::int from upvotes u where u.paper_id = p.id) as upvotes,
  ${PAPER_ENTITIES_JSON} as entities,
  ${PAPER_CLAIMS_JSON} as claims`

/** A paper's full record in one statement and one round trip. */
const paperDetail = preparedStatement<PaperDetailRow>(
  `select ${PAPER_DETAIL_SELECT}
from papers p where p.id = $?`,
  { genericPlan: true },
)

export type PaperDetail = {
  paper: PaperTextRow
  story: StoryRow | null
  upvotes: number
  entities: PaperEntityRow[]
  claims: ClaimRow[]
}

/** A PaperDetailRow's parts. */
export function paperDetailOf(row: PaperDetailRow): PaperDetail {
  const { story, upvotes, entities, claims, ...paper } = row
  return { paper, story, upvotes, entities, claims }
}

export async function getPaperDetail(db: Db, id: string): Promise<PaperDetail | null> {
  const [row] = await paperDetail(db, [[...OPEN_LICENSES], id])
  return row ? paperDetailOf(row) : null
}
