/**
 * Reading claims, for every interface: the claim select shared by /claims and a paper's detail
 * (each claim with its two resolved entities), and the filtered list, newest first, paged by
 * (created_at, id).
 */
import { eq } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Db } from '../db/client'
import { claims, entities } from '../db/schema'
import { curatedNamed } from '../lexicon/lexicon'
import { resolveEntityIds } from './entities'
import { containsPattern } from './text-pattern'
import { Conditions, statementFamily } from './prepared'

export const subjectEntity = alias(entities, 'subject_entity')
export const objectEntity = alias(entities, 'object_entity')

export const claimColumns = {
  claim: claims,
  subjectEntity: { type: subjectEntity.type, key: subjectEntity.key, name: subjectEntity.name },
  objectEntity: { type: objectEntity.type, key: objectEntity.key, name: objectEntity.name },
}

export function selectClaims(db: Db) {
  return db.select(claimColumns).from(claims)
    .leftJoin(subjectEntity, eq(subjectEntity.id, claims.subjectEntityId))
    .leftJoin(objectEntity, eq(objectEntity.id, claims.objectEntityId))
}

export type ClaimRow = {
  claim: typeof claims.$inferSelect
  subjectEntity: { type: string; key: string; name: string } | null
  objectEntity: { type: string; key: string; name: string } | null
}

/** The paper in brief beside a claim, with the licence its evidence follows. */
export type ClaimPaperRow = {
  id: string; title: string; doi: string | null; journal: string; publishedDate: string | null; preprint: boolean; url: string
  abstractLicense: string | null
}

export type ClaimFilters = {
  subject?: string; object?: string; relation?: string; organism?: string; paperId?: string
  subjectEntityId?: number; objectEntityId?: number // one resolved entity's claims (an entity's page), by the entity indexes
}

export type ClaimListRow = ClaimRow & { paper: ClaimPaperRow; createdAtText: string }

/**
 * What a user means by a side: a value that names entities exactly (name, key or any alias: sirolimus is
 * rapamycin, p16 is CDKN2A, NR is nicotinamide riboside) matches the claims whose side is one of those
 * entities, and the unresolved sides whose text contains it; only a value that names no entity falls back
 * to a substring of the side's text, entity name or key. So "sirolimus" never matches "temsirolimus",
 * a different drug, which is asked for by its own name. (`c` claims, `se`/`oe` their entities.)
 */
async function sideMatchesText(db: Db, where: Conditions, side: 'subject' | 'object', value: string): Promise<void> {
  const [text, entityId, entity] = side === 'subject' ? ['c.subject_text', 'c.subject_entity_id', 'se'] : ['c.object_text', 'c.object_entity_id', 'oe']
  const pattern = containsPattern(value)
  const ids = await resolveEntityIds(db, value)
  if (ids.length) where.add(`(${entityId} = any($?::integer[]) or (${entityId} is null and ${text} ilike $?))`, ids, pattern)
  else where.add(`(${text} ilike $? or ${entity}.name ilike $? or ${entity}.key ilike $?)`, pattern, pattern, pattern)
}

/** The organism as written, and for a name of a lexicon organism ("mice", "mouse"), any of that organism's names. */
function organismMatchesText(where: Conditions, value: string): void {
  const pattern = containsPattern(value)
  const entry = curatedNamed('organism', value)
  if (!entry) where.add('c.organism ilike $?', pattern)
  else where.add('(c.organism ilike $? or lower(c.organism) = any($?::text[]))', pattern, [entry.name, ...entry.synonyms].map((n) => n.toLowerCase()))
}

export type ClaimPageRow = Omit<ClaimListRow['claim'], 'createdAt'> & { createdAt: string; createdAtText: string } & {
  seType: string | null; seKey: string; seName: string; oeType: string | null; oeKey: string; oeName: string
  pId: string; pTitle: string; pDoi: string | null; pJournal: string; pPublishedDate: string | null; pPreprint: boolean; pUrl: string; pAbstractLicense: string | null
}

/** A claim row with its entities and its paper in brief, as /claims selects it; the bulk export reads it too. */
export const CLAIM_ROW_FROM = `select c.id, c.paper_id as "paperId", c.subject_text as "subjectText",
  c.subject_entity_id as "subjectEntityId", c.relation, c.object_text as "objectText", c.object_entity_id as "objectEntityId",
  c.organism, c.context, c.direction, c.magnitude, c.evidence, c.confidence, c.created_at::text as "createdAt",
  to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "createdAtText",
  se.type as "seType", se.key as "seKey", se.name as "seName", oe.type as "oeType", oe.key as "oeKey", oe.name as "oeName",
  p.id as "pId", p.title as "pTitle", p.doi as "pDoi", p.journal as "pJournal", p.published_date::text as "pPublishedDate",
  p.preprint as "pPreprint", p.url as "pUrl", p.abstract_license as "pAbstractLicense"
from claims c join papers p on p.id = c.paper_id
  left join entities se on se.id = c.subject_entity_id left join entities oe on oe.id = c.object_entity_id`

const claimPage = statementFamily<ClaimPageRow>((where) => `${CLAIM_ROW_FROM}
where ${where}
order by c.created_at desc, c.id desc limit $?`)

export function claimListRow(r: ClaimPageRow): ClaimListRow {
  return {
    claim: {
      id: r.id, paperId: r.paperId, subjectText: r.subjectText, subjectEntityId: r.subjectEntityId, relation: r.relation,
      objectText: r.objectText, objectEntityId: r.objectEntityId, organism: r.organism, context: r.context, direction: r.direction,
      magnitude: r.magnitude, evidence: r.evidence, confidence: r.confidence, createdAt: new Date(r.createdAt),
    },
    subjectEntity: r.seType === null ? null : { type: r.seType, key: r.seKey, name: r.seName },
    objectEntity: r.oeType === null ? null : { type: r.oeType, key: r.oeKey, name: r.oeName },
    paper: {
      id: r.pId, title: r.pTitle, doi: r.pDoi, journal: r.pJournal, publishedDate: r.pPublishedDate, preprint: r.pPreprint,
      url: r.pUrl, abstractLicense: r.pAbstractLicense,
    },
    createdAtText: r.createdAtText,
  }
}

/**
 * The conditions of a claims filter over `c` claims, `p` papers and `se`/`oe` their entities: the one
 * reading of ClaimFilters, shared by the list and its counts and facets (src/modules/v1/facets).
 */
export async function claimConditions(db: Db, f: ClaimFilters): Promise<Conditions> {
  const where = new Conditions()
  if (f.subject) await sideMatchesText(db, where, 'subject', f.subject)
  if (f.object) await sideMatchesText(db, where, 'object', f.object)
  if (f.relation) where.add('c.relation = $?', f.relation)
  if (f.organism) organismMatchesText(where, f.organism)
  if (f.paperId) where.add('c.paper_id = $?', f.paperId)
  if (f.subjectEntityId !== undefined) where.add('c.subject_entity_id = $?::integer', f.subjectEntityId)
  if (f.objectEntityId !== undefined) where.add('c.object_entity_id = $?::integer', f.objectEntityId)
  return where
}

/**
 * Claims newest first by created_at, then id, both descending, so one row comparison continues a
 * walk. created_at has microseconds and a JS Date only milliseconds: the position travels as exact
 * text and is compared as timestamptz, so claims made within one millisecond are neither
 * skipped nor repeated.
 */
export async function listClaims(db: Db, f: ClaimFilters, limit: number, after: { createdAt: string; id: number } | null): Promise<ClaimListRow[]> {
  const where = await claimConditions(db, f)
  if (after) where.add('(c.created_at, c.id) < ($?::timestamptz, $?::integer)', after.createdAt, after.id)
  return (await claimPage(db, [], where, [limit + 1])).map(claimListRow)
}
