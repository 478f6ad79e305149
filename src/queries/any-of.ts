/** Membership in a list as one array parameter. */
import { sql, type Column, type SQL } from 'drizzle-orm'

/**
 * `column = any($1::text[])`: the list travels as one array parameter, so the SQL text is the same
 * whatever its length. With `inArray` each length was a text of its own, and each text is a
 * prepared statement kept on every connection (src/db/client.ts): filter lists of every length
 * multiplied the statements a process holds.
 */
export function anyOf(column: Column, values: readonly string[]): SQL {
  return sql`${column} = any(${sql.param([...values])}::text[])`
}
