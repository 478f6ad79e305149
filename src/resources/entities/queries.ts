/** Reading entities, for every interface: the ranked, keyset-paged list, and one entity with its papers. */
import { and, asc, desc, eq, gt, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { anyOf } from '../../queries/any-of'
import { claims, entities, paperEntities, papers } from '../../db/schema'
import { keysetPage } from '../../queries/keyset'
import { PAPER_SELECT, paperColumns, type PaperRow, type PaperTextRow } from '../papers/queries'
import { Conditions, preparedStatement, statementFamily } from '../../queries/prepared'
import { OPEN_LICENSES } from '../../taxonomy'
import { normalizeAlias } from '../../lexicon/normalize'
import { containsPattern } from '../../queries/text-pattern'

export type EntityFilters = { type?: string; q?: string }

const entityColumns = {
  id: entities.id,
  type: entities.type,
  key: entities.key,
  name: entities.name,
  ids: entities.ids,
  paperCount: entities.paperCount,
}

export type EntityListRow = {
  id: number
  type: string
  key: string
  name: string
  ids: Record<string, string>
  paperCount: number
}

/**
 * Entities most-studied first: paper_count descending, then type and key ascending. paper_count is
 * kept by the minute refresh, so a walk stays consistent within a minute and entities no paper
 * involves (yet) are left out.
 */
export async function listEntities(
  db: Db,
  f: EntityFilters,
  limit: number,
  after: { paperCount: number; type: string; key: string } | null,
) {
  const base: SQL[] = [gt(entities.paperCount, 0)]
  if (f.type) base.push(eq(entities.type, f.type))
  if (f.q) {
    // The contract's substring of name or key, and the same inside any alias ("p16" finds CDKN2A, "mice" the mouse).
    const pattern = containsPattern(f.q)
    const alias = normalizeAlias(f.q)
    base.push(
      or(
        ilike(entities.name, pattern),
        ilike(entities.key, pattern),
        alias.length >= 2 ? sql`array_to_string(${entities.aliases}, ' ') like ${containsPattern(alias)}` : undefined,
      )!,
    )
  }
  const fetch = (where: SQL | undefined, n: number) =>
    db
      .select(entityColumns)
      .from(entities)
      .where(and(...base, where))
      .orderBy(desc(entities.paperCount), asc(entities.type), asc(entities.key))
      .limit(n) as Promise<EntityListRow[]>
  // (type, key) share a direction, so the rows tied on paper_count continue by one row comparison.
  return keysetPage(
    fetch,
    limit,
    after && {
      tiedAfter: and(
        eq(entities.paperCount, after.paperCount),
        sql`(${entities.type}, ${entities.key}) > (${after.type}, ${after.key})`,
      )!,
      beyond: lt(entities.paperCount, after.paperCount),
    },
  )
}

/**
 * Entities a value names exactly: by any alias (normalised: "p16INK4a", "p16-INK4a" and "P16INK4A" are one),
 * or by name or key ignoring case (entities the lexicon does not know have no aliases). At most 100.
 */
export async function resolveEntityIds(db: Db, value: string): Promise<number[]> {
  return (await resolveEntities(db, value)).map((r) => r.id)
}

export type NamedEntity = { id: number; type: string; key: string; name: string }

/** The entities a value names exactly (as resolveEntityIds), with their type, key and name. */
export async function resolveEntities(db: Db, value: string): Promise<NamedEntity[]> {
  const alias = normalizeAlias(value)
  return entityIdsNamed(db, [alias, alias, value, value])
}

// An empty alias (a value of punctuation alone) names nothing by alias.
const entityIdsNamed = preparedStatement<NamedEntity>(
  `select id, type, key, name from entities
  where ($?::text <> '' and aliases @> array[$?::text]) or lower(name) = lower($?::text) or lower(key) = lower($?::text)
  order by id limit 100`,
  { genericPlan: true },
)

/** An entity a name could mean: its key and name. */
export type EntityCandidate = { key: string; name: string }

/**
 * The entities of `type` that `value` names (entities by any name): by any alias (normalised,
 * as resolveEntityIds compares), or by name or key ignoring case; most-studied first. At most `limit`,
 * enough to tell one from several.
 */
export async function entitiesNamed(db: Db, type: string, value: string, limit = 6): Promise<EntityCandidate[]> {
  const alias = normalizeAlias(value)
  return entityNamedInType(db, [type, alias, alias, value, value, limit])
}

const entityNamedInType = preparedStatement<EntityCandidate>(
  `select key, name from entities
  where type = $?::text and (($?::text <> '' and aliases @> array[$?::text]) or lower(name) = lower($?::text) or ` +
    `lower(key) = lower($?::text))
  order by paper_count desc, key limit $?::int`,
  { genericPlan: true },
)

/**
 * Entities papers involve that answer to any of `names` (aliases, normalised here), most-studied
 * first: what the site's search suggests ("Did you mean the gene CDKN2A?"). One GIN look-up.
 */
export async function entitiesAnsweringTo(db: Db, names: string[], limit: number): Promise<EntityListRow[]> {
  const aliases = [...new Set(names.map(normalizeAlias).filter(Boolean))]
  if (aliases.length === 0) return []
  return (await db
    .select(entityColumns)
    .from(entities)
    .where(and(gt(entities.paperCount, 0), sql`${entities.aliases} && ${sql.param(aliases)}::text[]`))
    .orderBy(desc(entities.paperCount), asc(entities.type), asc(entities.key))
    .limit(limit)) as EntityListRow[]
}

export async function findEntity(db: Db, type: string, key: string): Promise<EntityListRow | null> {
  const [row] = await db
    .select(entityColumns)
    .from(entities)
    .where(and(eq(entities.type, type), eq(entities.key, key)))
  return (row as EntityListRow | undefined) ?? null
}

/** Claims with the entity as subject or object; a claim about the entity on both sides counts once. */
export async function countEntityClaims(db: Db, entityId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(claims)
    .where(or(eq(claims.subjectEntityId, entityId), eq(claims.objectEntityId, entityId)))
  return row.n
}

/**
 * One page of the entity's papers (one row per paper, whatever its number of roles), newest first
 * by indexed_date, then paper id, read from paper_entities' (entity_id, indexed_date desc, paper_id)
 * index. Unjudged papers have a null relevance, so any min_relevance > 0 leaves them out.
 */
export async function listEntityPaperIds(
  db: Db,
  entityId: number,
  minRelevance: number | undefined,
  limit: number,
  after: { indexedDate: string; paperId: string } | null,
) {
  const relevance = minRelevance !== undefined && minRelevance > 0 ? gte(papers.relevance, minRelevance) : undefined
  const fetch = (where: SQL | undefined, n: number) =>
    db
      .selectDistinct({ paperId: paperEntities.paperId, indexedDate: paperEntities.indexedDate })
      .from(paperEntities)
      .innerJoin(papers, eq(papers.id, paperEntities.paperId))
      .where(and(eq(paperEntities.entityId, entityId), relevance, where))
      .orderBy(desc(paperEntities.indexedDate), asc(paperEntities.paperId))
      .limit(n)
  return keysetPage(
    fetch,
    limit,
    after && {
      tiedAfter: and(eq(paperEntities.indexedDate, after.indexedDate), gt(paperEntities.paperId, after.paperId))!,
      beyond: lt(paperEntities.indexedDate, after.indexedDate),
    },
  )
}

/** The papers of one page, in the page's order, each with the entity's roles in it (sorted). */
export async function entityPapers(
  db: Db,
  entityId: number,
  paperIds: string[],
): Promise<{ paper: PaperRow; roles: string[] }[]> {
  if (paperIds.length === 0) return []
  const [paperRows, roleRows] = await Promise.all([
    db.select(paperColumns).from(papers).where(anyOf(papers.id, paperIds)),
    db
      .select({ paperId: paperEntities.paperId, role: paperEntities.role })
      .from(paperEntities)
      .where(and(eq(paperEntities.entityId, entityId), anyOf(paperEntities.paperId, paperIds))),
  ])
  const roles = new Map<string, string[]>()
  for (const r of roleRows) roles.set(r.paperId, [...(roles.get(r.paperId) ?? []), r.role])
  const byId = new Map(paperRows.map((p) => [p.id, p as PaperRow]))
  return paperIds.flatMap((id) => {
    const paper = byId.get(id)
    return paper ? [{ paper, roles: (roles.get(id) ?? []).sort() }] : []
  })
}

export type EntityDetailPage = {
  entity: EntityListRow
  claimCount: number
  /** Up to limit + 1 papers of the page, each with its position and the entity's roles in it (sorted). */
  papers: { indexedDate: string; paperId: string; paper: PaperRow; roles: string[] }[]
}

/**
 * The entity's claims, as subject or object, counted once: those on each side, less those on both,
 * each read from the side's (entity, created_at, id) index alone. One count over `subject or object`
 * visited every such claim's row (a bitmap heap scan): for an entity in 40,000 claims at a million
 * papers, 0.5-1.3 s against 65 ms, on a busy machine.
 */
const CLAIM_COUNT = `((select count(*) from claims c where c.subject_entity_id = e.id)
  + (select count(*) from claims c where c.object_entity_id = e.id)
  - (select count(*) from claims s join claims o on o.created_at = s.created_at and o.id = s.id
     where s.subject_entity_id = e.id and o.object_entity_id = e.id))::int`

/**
 * A row of the detail statement: the entity and its claim count beside one paper of the page (all null when there is
 * none).
 */
type EntityPaperRow = Omit<EntityListRow, 'id'> & {
  entityId: number
  claimCount: number
  pageIndexedDate: string | null
  roles: string[] | null
} & { [K in keyof PaperTextRow]: PaperTextRow[K] | null }

/**
 * One entity, its claim count and one range of its papers in one statement (findEntity,
 * countEntityClaims, listEntityPaperIds and entityPapers in one round trip): a row per paper, its
 * columns as PAPER_SELECT reads them beside the entity's, or one row without a paper when the range
 * is empty. Rows, not the papers as json: PostgreSQL spent more CPU writing 25 papers' json than on
 * the rest of the statement (docs/benchmarks.md).
 */
const entityDetailPage = statementFamily<EntityPaperRow>(
  (where) =>
    `with e as (
  select e.id, e.type, e.key, e.name, e.ids, e.paper_count, ${CLAIM_COUNT} as claim_count from entities e where ` +
    `e.type = $? and e.key = $?
), page as (
  select distinct pe.paper_id, pe.indexed_date from paper_entities pe join papers p on p.id = pe.paper_id
  where pe.entity_id = (select id from e) and ${where}
  order by pe.indexed_date desc, pe.paper_id asc limit $limit
)
select e.id as "entityId", e.type, e.key, e.name, e.ids, e.paper_count as "paperCount", e.claim_count as "claimCount",
  page.indexed_date::text as "pageIndexedDate",
  (select array_agg(r.role order by r.role collate "C") from paper_entities r where r.entity_id = e.id and ` +
    `r.paper_id = page.paper_id) as roles,
  ${PAPER_SELECT}
from e left join (page join papers p on p.id = page.paper_id) on true
order by page.indexed_date desc, page.paper_id asc`,
  { genericPlan: true },
)

/**
 * The entity's detail page in one round trip (two when a cursor's date has too few papers left:
 * src/queries/keyset.ts). Null when there is no such entity.
 */
export async function getEntityDetailPage(
  db: Db,
  type: string,
  key: string,
  minRelevance: number | undefined,
  limit: number,
  after: { indexedDate: string; paperId: string } | null,
): Promise<EntityDetailPage | null> {
  const fetch = async (extra: ((where: Conditions) => Conditions) | undefined, n: number) => {
    const where = new Conditions()
    if (minRelevance !== undefined && minRelevance > 0) where.add('p.relevance >= $?', minRelevance)
    const rows = await entityDetailPage(db, [type, key], extra ? extra(where) : where, [n, [...OPEN_LICENSES]])
    const [first] = rows
    if (!first) return null
    return {
      entity: {
        id: first.entityId,
        type: first.type,
        key: first.key,
        name: first.name,
        ids: first.ids,
        paperCount: first.paperCount,
      },
      claimCount: first.claimCount,
      // Each row is its paper, not copied (src/resources/stories/queries.ts); the entity's columns beside it go unread.
      papers:
        first.id === null
          ? []
          : rows.map((p) => ({
              indexedDate: p.pageIndexedDate!,
              paperId: p.id!,
              paper: p as PaperTextRow,
              roles: p.roles ?? [],
            })),
    }
  }
  if (!after) return fetch(undefined, limit + 1)
  const tied = await fetch(
    (w) => w.add('pe.indexed_date = $?::date', after.indexedDate).add('pe.paper_id > $?', after.paperId),
    limit + 1,
  )
  if (!tied || tied.papers.length > limit) return tied
  const rest = await fetch(
    (w) => w.add('pe.indexed_date < $?::date', after.indexedDate),
    limit + 1 - tied.papers.length,
  )
  return rest && { ...rest, papers: tied.papers.concat(rest.papers) }
}
