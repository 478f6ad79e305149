// A claim as the queries return it, in a file of its own so that src/resources/papers/queries.ts (a paper's detail
// lists its claims) can name it without importing src/resources/claims/queries.ts, which resolves entities through
// src/resources/entities/queries.ts, which builds on the paper columns of src/resources/papers/queries.ts.
import type { claims } from '../../db/schema'
import type { Timestamp } from '../../queries/prepared'

export type ClaimRow = {
  /** created_at is a Date where the query builder read it, PostgreSQL's text where a prepared statement did. */
  claim: Omit<typeof claims.$inferSelect, 'createdAt'> & { createdAt: Timestamp }
  subjectEntity: { type: string; key: string; name: string } | null
  objectEntity: { type: string; key: string; name: string } | null
}
