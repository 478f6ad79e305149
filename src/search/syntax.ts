/**
 * Queries that cannot match anything. websearch_to_tsquery never fails on bad syntax (unbalanced
 * quotes, a lone "-", stray OR), but a query of stop words or punctuation alone parses to nothing
 * and would silently match nothing: such a query gets a 400 that says why. PostgreSQL decides it,
 * for either backend, so `-`, `OR` or `the of and` mean the same everywhere.
 */
import { sql } from 'drizzle-orm'
import { executeRows, type Db } from '../db/client'
import { invalidInput } from '../domain-errors'
import { tsquery } from '../queries/tsquery'
import type { ReadOperand } from './meilisearch/query'
import { operandQuery, operandsOf, readWebsearch, withoutStopWords } from './websearch'

const noWords = () => invalidInput('q has no searchable words (only stop words or punctuation)')

/**
 * The 400 for a query with no searchable words. Checked only when a search came back empty, so good queries pay nothing
 * for it.
 */
export async function assertSearchable(db: Db, q: string): Promise<void> {
  const [row] = await executeRows<{ n: number }>(db, sql`select numnode(${tsquery(q)}) as n`)
  if (Number(row.n) === 0) throw noWords()
}

/**
 * `q` as PostgreSQL reads it (websearch.ts), without the operands PostgreSQL drops as stop words,
 * each operand with the readings PostgreSQL searches it by (geroscope_variants: American, British,
 * irregular plurals), for a backend that has no such reading of its own; the same 400 as
 * assertSearchable when nothing searchable is left. Null when the two readings disagree (answer
 * from PostgreSQL then).
 *
 * Unlike assertSearchable this runs before every search: Meilisearch given only stop words would
 * search for them, and given nothing would list every paper. It costs one round trip to the
 * database for a statement that reads no table (parsing only: well under a millisecond), which is
 * small beside the Meilisearch request it guards, and it is what makes both backends agree.
 */
export async function searchableReading(db: Db, q: string): Promise<ReadOperand[][] | null> {
  const read = readWebsearch(q)
  const operands = operandsOf(read).map(operandQuery)
  // (The operands come from the query as geroscope_tsquery rewrites it: each is parsed as is.)
  const [row] = await executeRows<{ n: number; kept: boolean[] | null; variants: string[][] | null }>(
    db,
    sql`
    select numnode(${tsquery(q)}) as n,
      (select array_agg(numnode(websearch_to_tsquery('geroscope'::regconfig, o)) > 0 order by i)
       from unnest(${sql.param(operands)}::text[]) with ordinality as operands(o, i)) as kept,
      (select json_agg(geroscope_variants(o) order by i)
       from unnest(${sql.param(operandsOf(read).map((o) => o.text))}::text[]) with ordinality as operands(o, i)) as
         variants`,
  )
  if (Number(row.n) === 0) throw noWords()
  const variants = typeof row.variants === 'string' ? (JSON.parse(row.variants) as string[][]) : (row.variants ?? [])
  let n = 0
  const withVariants = read.map((group) => group.map((o) => o && { ...o, variants: variants[n++] }))
  const query = withoutStopWords(withVariants, row.kept ?? [])
  return query.length > 0 ? query : null
}
