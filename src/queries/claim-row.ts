// A claim as the queries return it, in a file of its own so that src/queries/papers.ts (a paper's detail lists its
// claims) can name it without importing src/queries/claims.ts, which resolves entities through src/queries/entities.ts,
// which builds on the paper columns of src/queries/papers.ts.
import type { claims } from '../db/schema'
import type { Timestamp } from './prepared'

export type ClaimRow = {
  /** created_at is a Date where the query builder read it, PostgreSQL's text where a prepared statement did. */
  claim: Omit<typeof claims.$inferSelect, 'createdAt'> & { createdAt: Timestamp }
  subjectEntity: { type: string; key: string; name: string } | null
  objectEntity: { type: string; key: string; name: string } | null
}
