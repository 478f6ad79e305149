/**
 * The precomputed counts (drizzle/0016_facet_counts.sql) as readers see them: each count table with
 * the changes still pending beside it (drizzle/0019_facet_counts_pending.sql), to be summed. Writers
 * append their changes to the `_pending` tables; compactFacetCounts folds them into the counts.
 */
import { sql } from 'drizzle-orm'
import type { Database } from '../db/client'

const KEYS = {
  paper_facet_counts: 'indexed_date, topic, study_type, preprint, relevance_band',
  paper_organism_counts: 'indexed_date, topic, study_type, preprint, relevance_band, organism',
  paper_relation_counts: 'indexed_date, topic, study_type, preprint, relevance_band, relation',
  paper_facet_counts_monthly: 'indexed_month, topic, study_type, preprint, relevance_band',
  paper_organism_counts_monthly: 'indexed_month, topic, study_type, preprint, relevance_band, organism',
  paper_relation_counts_monthly: 'indexed_month, topic, study_type, preprint, relevance_band, relation',
  claim_facet_counts: 'relation, organism, topic, study_type, preprint, indexed_month',
} as const

export type CountTable = keyof typeof KEYS

/** The count table's rows and its pending changes, as a FROM item (give it an alias); sum `n` by key. */
export const countsOf = (table: CountTable) =>
  `(select ${KEYS[table]}, n from ${table} union all select ${KEYS[table]}, n from ${table}_pending)`

/**
 * Folds the pending changes into the counts (one compaction at a time, database-wide); returns how
 * many count rows changed. Readers are exact either way: this keeps what they sum small.
 */
export async function compactFacetCounts(database: Pick<Database, 'rows'>): Promise<number> {
  const [row] = await database.rows<{ folded: number }>(sql`select facet_counts_compact() as folded`)
  return Number(row?.folded ?? 0)
}
