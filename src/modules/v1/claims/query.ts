/** The claim select shared by /claims and a paper's detail: each claim with its two resolved entities. */
import { eq } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Db } from '../../../db/client'
import { claims, entities } from '../../../db/schema'

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
