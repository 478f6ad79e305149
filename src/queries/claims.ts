/**
 * Reading claims, for every interface: the claim select shared by /claims and a paper's detail
 * (each claim with its two resolved entities), and the filtered list, newest first, paged by
 * (created_at, id).
 */
import { and, desc, eq, ilike, inArray, isNull, or, sql, type Column, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Db } from '../db/client'
import { claims, entities, papers } from '../db/schema'
import { curatedNamed } from '../lexicon/lexicon'
import { resolveEntityIds } from './entities'
import { containsPattern } from './text-pattern'

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

export type ClaimFilters = { subject?: string; object?: string; relation?: string; organism?: string; paperId?: string }

/** The paper columns a ClaimItem shows, plus the licence its evidence follows. */
const claimPaperColumns = {
  id: papers.id, title: papers.title, doi: papers.doi, journal: papers.journal, publishedDate: papers.publishedDate,
  preprint: papers.preprint, url: papers.url, abstractLicense: papers.abstractLicense,
}

/**
 * What a user means by a side: a value that names entities exactly (name, key or any alias: sirolimus is
 * rapamycin, p16 is CDKN2A, NR is nicotinamide riboside) matches the claims whose side is one of those
 * entities, and the unresolved sides whose text contains it; only a value that names no entity falls back
 * to a substring of the side's text, entity name or key. So "sirolimus" never matches "temsirolimus",
 * a different drug, which is asked for by its own name.
 */
async function sideMatches(db: Db, text: Column, entityId: Column, entity: { name: Column; key: Column }, value: string): Promise<SQL> {
  const pattern = containsPattern(value)
  const ids = await resolveEntityIds(db, value)
  if (ids.length) return or(inArray(entityId, ids), and(isNull(entityId), ilike(text, pattern)))!
  return or(ilike(text, pattern), ilike(entity.name, pattern), ilike(entity.key, pattern))!
}

/** The organism as written, and for a name of a lexicon organism ("mice", "mouse"), any of that organism's names. */
function organismMatches(value: string): SQL {
  const pattern = containsPattern(value)
  const entry = curatedNamed('organism', value)
  if (!entry) return ilike(claims.organism, pattern)
  return or(ilike(claims.organism, pattern), inArray(sql`lower(${claims.organism})`, [entry.name, ...entry.synonyms].map((n) => n.toLowerCase())))!
}

/** created_at to the microsecond, in UTC and ISO 8601 whatever the session's TimeZone and DateStyle. */
const exactCreatedAt = sql<string>`to_char(${claims.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

export type ClaimListRow = ClaimRow & { paper: ClaimPaperRow; createdAtText: string }

/**
 * Claims newest first by created_at, then id, both descending, so one row comparison continues a
 * walk. created_at has microseconds and a JS Date only milliseconds: the position travels as exact
 * text and is compared as timestamptz, so claims made within one millisecond are neither
 * skipped nor repeated.
 */
export async function listClaims(db: Db, f: ClaimFilters, limit: number, after: { createdAt: string; id: number } | null) {
  const conditions: SQL[] = []
  if (f.subject) conditions.push(await sideMatches(db, claims.subjectText, claims.subjectEntityId, subjectEntity, f.subject))
  if (f.object) conditions.push(await sideMatches(db, claims.objectText, claims.objectEntityId, objectEntity, f.object))
  if (f.relation) conditions.push(eq(claims.relation, f.relation))
  if (f.organism) conditions.push(organismMatches(f.organism))
  if (f.paperId) conditions.push(eq(claims.paperId, f.paperId))
  if (after) conditions.push(sql`(${claims.createdAt}, ${claims.id}) < (${after.createdAt}::timestamptz, ${after.id}::integer)`)
  return db.select({ ...claimColumns, paper: claimPaperColumns, createdAtText: exactCreatedAt })
    .from(claims)
    .innerJoin(papers, eq(papers.id, claims.paperId))
    .leftJoin(subjectEntity, eq(subjectEntity.id, claims.subjectEntityId))
    .leftJoin(objectEntity, eq(objectEntity.id, claims.objectEntityId))
    .where(and(...conditions))
    .orderBy(desc(claims.createdAt), desc(claims.id))
    .limit(limit + 1) as Promise<ClaimListRow[]>
}
