/**
 * Reading claims, for every interface: the claim select shared by /claims and a paper's detail
 * (each claim with its two resolved entities), and the filtered list, newest first, paged by
 * (created_at, id).
 */
import { eq } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/client'
import { claims, entities } from '../../db/schema'
import { curatedNamed } from '../../lexicon/lexicon'
import { resolveEntities } from '../entities/queries'
import { containsPattern, wholeWordsPattern } from '../../queries/text-pattern'
import { entryByKey } from '../../lexicon/lexicon'
import { Conditions, preparedStatement, statementFamily, whereText, type Planning } from '../../queries/prepared'
import { countsOf } from '../../queries/facet-counts'
import type { ClaimRow } from './claim-row'

export const subjectEntity = alias(entities, 'subject_entity')
export const objectEntity = alias(entities, 'object_entity')

export const claimColumns = {
  claim: claims,
  subjectEntity: { type: subjectEntity.type, key: subjectEntity.key, name: subjectEntity.name },
  objectEntity: { type: objectEntity.type, key: objectEntity.key, name: objectEntity.name },
}

export function selectClaims(db: Db) {
  return db
    .select(claimColumns)
    .from(claims)
    .leftJoin(subjectEntity, eq(subjectEntity.id, claims.subjectEntityId))
    .leftJoin(objectEntity, eq(objectEntity.id, claims.objectEntityId))
}

/** The paper in brief beside a claim, with the licence its evidence follows. */
export type ClaimPaperRow = {
  id: string
  title: string
  doi: string | null
  journal: string
  publishedDate: string | null
  preprint: boolean
  url: string
  abstractLicense: string | null
}

export type ClaimFilters = {
  subject?: string
  object?: string
  relation?: string
  organism?: string
  paperId?: string
  subjectEntityId?: number
  objectEntityId?: number // one resolved entity's claims (an entity's page), by the entity indexes
}

export type ClaimListRow = ClaimRow & { paper: ClaimPaperRow; createdAtText: string }

/**
 * What a user means by a side: a value that names entities exactly (name, key or any alias: sirolimus is
 * rapamycin, p16 is CDKN2A, NR is nicotinamide riboside) matches the claims whose side is one of those
 * entities, and the unresolved sides whose text holds the value or another of those entities' names as a
 * whole word (`words`, a regular expression: "low-dose rapamycin" for sirolimus, never "temsirolimus");
 * only a value that names no entity falls back to a substring of the side's text, entity name or key
 * (`pattern`). So "sirolimus" never matches temsirolimus, a different drug, asked for by its own name.
 */
type SideMatch = { side: 'subject' | 'object'; ids: number[]; pattern: string; words: string }

const SIDE_COLUMNS = {
  subject: { text: 'c.subject_text', entityId: 'c.subject_entity_id' },
  object: { text: 'c.object_text', entityId: 'c.object_entity_id' },
} as const

/** The most names an unresolved side's text is searched for: the value, then each entity's names. */
const MAX_NAMES = 40

async function sideMatch(db: Db, side: 'subject' | 'object', value: string): Promise<SideMatch> {
  const named = await resolveEntities(db, value)
  const names = [
    value,
    ...named.flatMap((e) => {
      const entry = entryByKey(e.type, e.key)
      // The names a text spells out (not bare abbreviations, which the text would have to define).
      return entry ? [entry.name, ...entry.synonyms, ...(entry.symbols ?? [])] : [e.name]
    }),
  ]
  return {
    side,
    ids: named.map((e) => e.id),
    pattern: containsPattern(value),
    words: wholeWordsPattern(names, MAX_NAMES),
  }
}

/** The entities whose name or key holds a value (its contains pattern, given twice). */
const NAMED_ENTITIES = 'select e.id from entities e where e.name ilike $? or e.key ilike $?'

/** The side's condition over `c` claims alone (no join), so that it can narrow any branch of a statement. */
function addSideCondition(where: Conditions, { side, ids, pattern, words }: SideMatch): void {
  const { text, entityId } = SIDE_COLUMNS[side]
  if (ids.length) where.add(`(${entityId} = any($?::integer[]) or (${entityId} is null and ${text} ~* $?))`, ids, words)
  else where.add(`(${text} ilike $? or ${entityId} in (${NAMED_ENTITIES}))`, pattern, pattern, pattern)
}

/** The organism as written, and for a name of a lexicon organism ("mice", "mouse"), any of that organism's names. */
function organismMatchesText(where: Conditions, value: string): void {
  const pattern = containsPattern(value)
  const entry = curatedNamed('organism', value)
  if (!entry) where.add('c.organism ilike $?', pattern)
  else
    where.add(
      '(c.organism ilike $? or lower(c.organism) = any($?::text[]))',
      pattern,
      [entry.name, ...entry.synonyms].map((n) => n.toLowerCase()),
    )
}

export type ClaimPageRow = Omit<ClaimListRow['claim'], 'createdAt'> & { createdAt: string; createdAtText: string } & {
  seType: string | null
  seKey: string
  seName: string
  oeType: string | null
  oeKey: string
  oeName: string
  pId: string
  pTitle: string
  pDoi: string | null
  pJournal: string
  pPublishedDate: string | null
  pPreprint: boolean
  pUrl: string
  pAbstractLicense: string | null
}

/**
 * A claim row's columns with its entities and its paper in brief (`c`, `se`, `oe`, `p`): /claims, the change feed and
 * the bulk export read them.
 */
export const CLAIM_COLUMNS =
  `c.id, c.paper_id as "paperId", c.subject_text as "subjectText",
  c.subject_entity_id as "subjectEntityId", c.relation, c.object_text as "objectText", c.object_entity_id as ` +
  `"objectEntityId",
  c.organism, c.context, c.direction, c.magnitude, c.evidence, c.confidence, c.created_at::text as "createdAt",
  to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "createdAtText",
  se.type as "seType", se.key as "seKey", se.name as "seName", oe.type as "oeType", oe.key as "oeKey", oe.name as ` +
  `"oeName",
  p.id as "pId", p.title as "pTitle", p.doi as "pDoi", p.journal as "pJournal", p.published_date::text as ` +
  `"pPublishedDate",
  p.preprint as "pPreprint", p.url as "pUrl", p.abstract_license as "pAbstractLicense"`

export const CLAIM_PAGE_SELECT = `select ${CLAIM_COLUMNS}`

/** What CLAIM_COLUMNS reads beside `c`: its paper and its two entities. */
export const CLAIM_JOINS = `join papers p on p.id = c.paper_id
  left join entities se on se.id = c.subject_entity_id left join entities oe on oe.id = c.object_entity_id`

/** CLAIM_PAGE_SELECT with the joins it reads from. */
export const CLAIM_ROW_FROM = `${CLAIM_PAGE_SELECT}
from claims c ${CLAIM_JOINS}`

export function claimListRow(r: ClaimPageRow): ClaimListRow {
  return {
    claim: {
      id: r.id,
      paperId: r.paperId,
      subjectText: r.subjectText,
      subjectEntityId: r.subjectEntityId,
      relation: r.relation,
      objectText: r.objectText,
      objectEntityId: r.objectEntityId,
      organism: r.organism,
      context: r.context,
      direction: r.direction,
      magnitude: r.magnitude,
      evidence: r.evidence,
      confidence: r.confidence,
      createdAt: r.createdAt,
    },
    subjectEntity: r.seType === null ? null : { type: r.seType, key: r.seKey, name: r.seName },
    objectEntity: r.oeType === null ? null : { type: r.oeType, key: r.oeKey, name: r.oeName },
    paper: {
      id: r.pId,
      title: r.pTitle,
      doi: r.pDoi,
      journal: r.pJournal,
      publishedDate: r.pPublishedDate,
      preprint: r.pPreprint,
      url: r.pUrl,
      abstractLicense: r.pAbstractLicense,
    },
    createdAtText: r.createdAtText,
  }
}

type ClaimFilterParts = { sides: SideMatch[]; rest: Conditions }

/** The sides a filter names (resolved to entities) and its other conditions, apart. */
async function claimFilterParts(db: Db, f: ClaimFilters): Promise<ClaimFilterParts> {
  const sides = await Promise.all([
    f.subject ? sideMatch(db, 'subject', f.subject) : null,
    f.object ? sideMatch(db, 'object', f.object) : null,
  ])
  const rest = new Conditions()
  if (f.relation) rest.add('c.relation = $?', f.relation)
  if (f.organism) organismMatchesText(rest, f.organism)
  if (f.paperId) rest.add('c.paper_id = $?', f.paperId)
  if (f.subjectEntityId !== undefined) rest.add('c.subject_entity_id = $?::integer', f.subjectEntityId)
  if (f.objectEntityId !== undefined) rest.add('c.object_entity_id = $?::integer', f.objectEntityId)
  return { sides: sides.filter((m) => m !== null), rest }
}

/** `where` narrowed by the given sides and the filter's other conditions. */
function narrowed(where: Conditions, sides: SideMatch[], rest: Conditions): Conditions {
  for (const m of sides) addSideCondition(where, m)
  where.fragments.push(...rest.fragments)
  where.values.push(...rest.values)
  return where
}

/**
 * The conditions of a claims filter over `c` claims (and `p` papers, `se`/`oe` its entities, which
 * the conditions do not need): the one reading of ClaimFilters, shared by the list and its counts
 * and facets (src/modules/v1/facets).
 */
export async function claimConditions(db: Db, f: ClaimFilters): Promise<Conditions> {
  const { sides, rest } = await claimFilterParts(db, f)
  return narrowed(new Conditions(), sides, rest)
}

/**
 * The filter as disjoint sets of `c` claims whose union is what it matches, each led by an index, for
 * statements that read every match (counts, groups): with a side filter, the claims of the side's
 * entities (their index) and, apart, those whose side text holds the value (a trigram index); one OR
 * over both walked every claim (0.55 s at a million papers for a rare subject). Without one, the
 * filter itself.
 */
export async function claimBranches(db: Db, f: ClaimFilters): Promise<Conditions[]> {
  const {
    sides: [lead, ...others],
    rest,
  } = await claimFilterParts(db, f)
  const branch = (fragment: string, ...values: unknown[]) =>
    narrowed(new Conditions().add(fragment, ...values), others, rest)
  if (!lead) return [branch('true')]
  const { text, entityId } = SIDE_COLUMNS[lead.side]
  if (lead.ids.length)
    return [
      branch(`${entityId} = any($?::integer[])`, lead.ids),
      branch(`${entityId} is null and ${text} ~* $?`, lead.words),
    ]
  return [
    branch(`${entityId} in (${NAMED_ENTITIES})`, lead.pattern, lead.pattern),
    branch(
      `${text} ilike $? and (${entityId} is null or ${entityId} not in (${NAMED_ENTITIES}))`,
      lead.pattern,
      lead.pattern,
      lead.pattern,
    ),
  ]
}

const NEWEST_FIRST = 'order by c.created_at desc, c.id desc'

/** A statement piece and its values, in the order of its `$?` and `$limit`s. */
type Piece = { text: string; values: unknown[] }

/** Pieces and raw text put together in order, each piece's values with it, so no list of values is kept by hand. */
function piece(strings: TemplateStringsArray, ...parts: (Piece | string)[]): Piece {
  let text = strings[0]
  const values: unknown[] = []
  parts.forEach((part, i) => {
    if (typeof part === 'string') text += part
    else {
      text += part.text
      values.push(...part.values)
    }
    text += strings[i + 1]
  })
  return { text, values }
}

const whereOf = (conditions: Conditions): Piece => ({
  text: whereText(conditions.fragments),
  values: conditions.values,
})

/**
 * The (id, created_at) of the page's claims, newest first, at most `limit` of them; without a side
 * filter, only the WHERE clause of a walk of whichever index fits the conditions. With one, the side
 * leads, as CTEs ending in `hits`: the claims whose side is one of its entities, each entity's newest
 * from its (entity, created_at, id) index, together with those whose side text holds the value
 * (sideText below; for a value naming entities, the unresolved sides alone). Left to one OR
 * condition, the planner walked every claim newest first for a side with few claims (2 s at a
 * million papers). Each branch keeps every condition, so their newest `limit` together hold the page's.
 */
function claimHits(
  parts: ClaimFilterParts,
  after: { createdAt: string; id: number } | null,
  limit: number,
): { ctes: string; values: unknown[] } | { where: string; values: unknown[] } {
  const [lead, ...others] = parts.sides
  const filters = whereOf(narrowed(new Conditions(), others, parts.rest))
  const cursor: Piece = after
    ? { text: '(c.created_at, c.id) < ($?::timestamptz, $?::integer)', values: [after.createdAt, after.id] }
    : { text: 'true', values: [] }
  const rest = piece`${filters} and ${cursor}`
  if (!lead) return { where: rest.text, values: rest.values }
  const { text, entityId } = SIDE_COLUMNS[lead.side]
  const byEntity = (source: Piece, base: string, textIndex: string, matches: Piece) => {
    const textHits = sideText({ index: textIndex, base, after: cursor, filters, matches, limit })
    const hits = piece`${textHits.ctes},
    hits as ((select h.id, h.created_at from ${source} cross join lateral (
      select c.id, c.created_at from claims c where ${entityId} = side.id and ${rest}
      ${NEWEST_FIRST} limit ${pageLimit(limit)}) h)
    union
    (${textHits.select}))`
    return { ctes: hits.text, values: hits.values }
  }
  // Entities named exactly: their claims, and the unresolved sides whose text holds the value.
  if (lead.ids.length) {
    return byEntity(
      { text: 'unnest($?::integer[]) as side(id)', values: [lead.ids] },
      `${entityId} is null`,
      `claims_unresolved_${lead.side}_trgm_idx`,
      { text: `${text} ~* $?`, values: [lead.words] },
    )
  }
  // A value naming no entity: claims of entities whose name or key holds it, and sides whose text does.
  return byEntity(
    { text: `(${NAMED_ENTITIES}) side`, values: [lead.pattern, lead.pattern] },
    'true',
    `claims_${lead.side}_text_trgm_idx`,
    { text: `${text} ilike $?`, values: [lead.pattern] },
  )
}

/** The newest claims a side text's scout reads: when they hold a page, that is the page. */
const TEXT_SCOUT = 250
/** The most claims a walk for a side text reads before its trigram index is read after all. */
const TEXT_WALK = 20_000
/**
 * What reading one match from a trigram index costs against walking one claim newest first and testing
 * its text (at a million papers: a bitmap of 505 matches 1.9 ms, a walk of 8,932 claims 8.8 ms; and
 * about 5 ms more for a pattern whose trigrams are common, such as "loss of ...").
 */
const MATCH_COST_IN_WALKED = 4

type SideText = {
  /** The trigram index over the claims `base` selects, for the side's text. */
  index: string
  base: string
  /** Where the page starts, and the filter's other conditions. */
  after: Piece
  filters: Piece
  /** The side's text condition: a contains pattern, or a value's names as whole words. */
  matches: Piece
  limit: number
}

/**
 * The newest `$limit` claims (`base`, after the cursor, passing `filters`) whose side text holds a
 * pattern, as CTEs and the select that reads them. PostgreSQL cannot tell how many sides hold a text:
 * it prices any pattern at a fixed share of the claims, so a custom plan walked every claim newest
 * first for some rare texts (76 ms for one that 638 claims hold, 7.5 ms from the trigram index) and a
 * generic plan read the index for a common one. So the statement chooses as it runs, as search's
 * tiers do (src/search/tiers.ts): a scout reads the newest TEXT_SCOUT claims. If they hold a page,
 * that is the page. Else their share of matches projects both costs: the walk to a page (`limit` ×
 * TEXT_SCOUT / hits claims) and the trigram index (hits / TEXT_SCOUT of the claims it holds,
 * PostgreSQL's count of them, each MATCH_COST_IN_WALKED); the walk is taken when it is the cheaper, up
 * to TEXT_WALK claims, and otherwise or when it falls short every match comes from the trigram index,
 * sorted in an order no index supplies, so that no plan walks instead. The scout and the walk count
 * claims read, whatever the filters, so a filter nothing passes cannot make them read every claim.
 * Each path's plan holds for any value, so the statement can be planned once.
 */
function sideText({ index, base, after, filters, matches, limit }: SideText): { ctes: Piece; select: Piece } {
  const page = pageLimit(limit)
  const walk = (rows: number, only: Piece) => piece`select c.id, c.created_at from (
        select * from claims c where ${base} and ${after} ${NEWEST_FIRST} limit ${String(rows)}) c
      where ${only}${matches} and ${filters} ${NEWEST_FIRST} limit ${page}`
  const scouted = '(select count(*) from side_scout)'
  const walked = '(select count(*) from side_walk)'
  // limit × SCOUT / hits ≤ COST × hits / SCOUT × matched, without a division.
  const walkIsCheaper = piece`${scouted} * ${scouted} * ${String(MATCH_COST_IN_WALKED)}
      * (select greatest(reltuples, 0) from pg_class where oid = '${index}'::regclass)
      >= ${page} * ${String(TEXT_SCOUT * TEXT_SCOUT)}::bigint`
  return {
    ctes: piece`side_scout as materialized (${walk(TEXT_SCOUT, piece``)}),
    side_walk as materialized (${walk(TEXT_WALK, piece`${scouted} < ${page} and ${walkIsCheaper} and `)})`,
    select: piece`select * from side_scout where ${scouted} >= ${page}
    union all
    select * from side_walk where ${walked} >= ${page}
    union all
    (select c.id, c.created_at from claims c
      where ${scouted} < ${page} and ${walked} < ${page} and ${matches} and ${base} and ${filters} and ${after}
      order by c.created_at + interval '0 s' desc, c.id desc limit ${page})`,
  }
}

/** A `$limit` (src/queries/prepared.ts) and its value, the page size. */
const pageLimit = (limit: number): Piece => ({ text: '$limit', values: [limit] })

const statements = new Map<string, (db: Db, values: unknown[]) => Promise<unknown[]>>()

/**
 * Runs a statement put together from fixed pieces (its shape follows the filters given, never their
 * values): each shape is numbered once and, unless planned per run, stays one prepared statement per connection.
 */
function runShape<Row>(db: Db, text: string, values: unknown[], planning: Planning): Promise<Row[]> {
  let statement = statements.get(text)
  if (!statement) {
    statement = preparedStatement<unknown>(text, planning)
    statements.set(text, statement)
  }
  return statement(db, values) as Promise<Row[]>
}

/** Past this many (relation, organism) values, an organism filter walks the list's own index instead. */
const MAX_ORGANISM_PAIRS = 100

/**
 * The (relation, organism) values an organism filter (with or without a relation) matches, from the
 * precomputed claim counts (drizzle/0016_facet_counts.sql), whose columns carry the claim's names so
 * the list's conditions apply to them unchanged; at most MAX_ORGANISM_PAIRS + 1 of them.
 */
const organismPairs = statementFamily<{ relation: string; organism: string }>(
  (where) =>
    `select c.relation, c.organism from ${countsOf('claim_facet_counts')} c where ${where} group by 1, 2 having ` +
    `sum(c.n) > 0 limit ${MAX_ORGANISM_PAIRS + 1}`,
)

/**
 * An organism filter's page: the newest claims of each exact (relation, organism) value it matches,
 * each from the (relation, organism, created_at, id) index, merged. Organism is a contains match, so
 * no index walk could serve it; left to the relation's index, a rare pair (most random relation ×
 * organism pairs match nothing at a million papers) walked every claim of the relation newest first
 * to fill the page: 0.7-0.8 s. A filter matching nothing is answered without touching claims.
 */
const BY_PAIRS = (after: string, page: ClaimPageShape) =>
  `with hits as (select h.id, h.created_at from unnest($?::text[], $?::text[]) as pair(relation, organism)
  cross join lateral (select c.id, c.created_at from claims c where c.relation = pair.relation and c.organism = ` +
  `pair.organism ${after}
    ${NEWEST_FIRST} limit $limit) h)
${shaped(page, `from hits join claims c on c.id = hits.id`)}`
const AFTER_PAIR = 'and (c.created_at, c.id) < ($?::timestamptz, $?::integer)'

/**
 * What a page statement reads of each claim it finds (`c`): its select list and the joins it reads from. The
 * claims it finds, and their order, are the filter's whatever the shape; src/documents/claims.ts reads stored items.
 * `paged`: the joins are made only for the page's claims, after its limit (a join the planner might make by hashing a
 * whole table, as it did claim_documents for a side filter's hits, never sees more than the page).
 */
export type ClaimPageShape = { select: string; joins: string; paged?: boolean }
const FULL_ROWS: ClaimPageShape = { select: CLAIM_PAGE_SELECT, joins: CLAIM_JOINS }

/** The page's select from `from` (claims `c` and what leads to them) under `where`, newest first. */
function shaped(shape: ClaimPageShape, from: string, where = ''): string {
  if (!shape.paged) return `${shape.select}\n${from} ${shape.joins}${where}\n${NEWEST_FIRST} limit $limit`
  return `${shape.select}
from (select c.id ${from}${where}\n${NEWEST_FIRST} limit $limit) page join claims c on c.id = page.id ${shape.joins}
${NEWEST_FIRST}`
}

/** Only the claim's own relation and organism filter `f`, and organism is one of them. */
const organismLeads = (f: ClaimFilters) =>
  Boolean(f.organism) &&
  !f.subject &&
  !f.object &&
  !f.paperId &&
  f.subjectEntityId === undefined &&
  f.objectEntityId === undefined

/**
 * Claims newest first by created_at, then id, both descending, so one row comparison continues a
 * walk. created_at has microseconds and a JS Date only milliseconds: the position travels as exact
 * text and is compared as timestamptz, so claims made within one millisecond are neither
 * skipped nor repeated.
 */
export async function listClaims(
  db: Db,
  f: ClaimFilters,
  limit: number,
  after: { createdAt: string; id: number } | null,
): Promise<ClaimListRow[]> {
  return (await listClaimPage<ClaimPageRow>(db, f, limit, after, FULL_ROWS)).map(claimListRow)
}

/** listClaims' page (at most `limit` + 1 claims) as rows of `shape`. */
export async function listClaimPage<Row>(
  db: Db,
  f: ClaimFilters,
  limit: number,
  after: { createdAt: string; id: number } | null,
  shape: ClaimPageShape,
): Promise<Row[]> {
  const parts = await claimFilterParts(db, f)
  if (organismLeads(f)) {
    const pairs = await organismPairs(db, [], parts.rest, [])
    if (pairs.length === 0) return []
    if (pairs.length <= MAX_ORGANISM_PAIRS) {
      const values = [pairs.map((r) => r.relation), pairs.map((r) => r.organism)]
      return after
        ? runShape<Row>(
            db,
            BY_PAIRS(AFTER_PAIR, shape),
            [...values, after.createdAt, after.id, limit + 1, limit + 1],
            {},
          )
        : runShape<Row>(db, BY_PAIRS('', shape), [...values, limit + 1, limit + 1], {})
    }
  }
  const hits = claimHits(parts, after, limit + 1)
  const text =
    'ctes' in hits
      ? `with ${hits.ctes}\n${shaped(shape, 'from hits join claims c on c.id = hits.id')}`
      : shaped(shape, 'from claims c', `\nwhere ${hits.where}`)
  const values = [...hits.values, limit + 1]
  // A page led by a side is left to PostgreSQL's rule. Since its text's path is chosen as it runs (sideText), the
  // rule settles on a generic plan for most values, and forcing one measured no faster (docs/benchmarks.md,
  // tenth session); before, a generic plan read twice the PostgreSQL CPU (eighth session).
  if ('ctes' in hits) return runShape<Row>(db, text, values, {})
  // A relation's page is planned for its relation, every time: planned without it, the page walked every claim
  // newest first testing the relation, as one relation in eight would fill it at once, and for a relation no
  // claim has that read all of them (0.56 s at a million papers); with it, a rare relation reads its own index.
  return runShape<Row>(db, text, values, f.relation ? { customPlan: true } : { genericPlan: true })
}
