/**
 * SQL expressions that write JSON text exactly as JSON.stringify writes the same values once the
 * drivers have read them (answers built in PostgreSQL must not change a byte).
 *
 * Why text concatenation and not json_build_object or json_agg: those write `"key" : value` and
 * `, ` between items, where JSON.stringify writes neither space. row_to_json is compact but names
 * keys after columns and cannot leave a key out, which `fields=` needs (src/modules/v1/fields).
 *
 * Each function takes an SQL expression and returns an SQL expression of type text (never NULL:
 * concat() would write a NULL as nothing).
 * Everything here is fixed text written by the code; request values only ever arrive as parameters.
 */

/**
 * A string (or NULL) as a JSON string: to_json escapes like JSON.stringify (\" \\ \b \f \n \r \t, other controls as
 * \u00xx).
 */
export const jsonString = (expr: string, nullable = true) =>
  nullable ? `coalesce(to_json(${expr})::text, 'null')` : `to_json(${expr})::text`

/** A boolean. */
export const jsonBoolean = (expr: string) =>
  `case when ${expr} then 'true' when not ${expr} then 'false' else 'null' end`

/** An integer (int2/int4/int8: their text is JavaScript's). */
export const jsonInteger = (expr: string) => `coalesce((${expr})::text, 'null')`

/**
 * A float8 as JavaScript writes the Number the driver parsed from PostgreSQL's text: the same
 * shortest round-trip digits, but JavaScript writes 0.00001 where PostgreSQL writes 1e-05, 1e-7
 * for 1e-07, 1000000000000000 for 1e+15, 0 for -0, and null for NaN and the infinities. The usual
 * case (0.0001 ≤ |x| < 1e15) is PostgreSQL's own text; the rest goes through numeric, which writes
 * plain decimals, or drops the exponent's leading zeros.
 */
export const jsonNumber = (expr: string) => `case when ${expr} is null then 'null'
  when ${expr} <> 0 and abs(${expr}) >= 1e-4 and abs(${expr}) < 1e15 then (${expr})::text
  when ${expr} = 0 then '0'
  when ${expr} = 'NaN'::float8 or ${expr} = 'Infinity'::float8 or ${expr} = '-Infinity'::float8 then 'null'
  when abs(${expr}) >= 1e-6 and abs(${expr}) < 1e21 then (${expr})::text::numeric::text
  else regexp_replace((${expr})::text, 'e([+-])0*([0-9])', 'e\\1\\2') end`

/**
 * A timestamptz as Date.toISOString() writes it: UTC, milliseconds (truncated, as JavaScript's
 * Date truncates the microseconds it parses), a Z.
 */
export const jsonTimestamp = (expr: string) =>
  `coalesce('"' || to_char((${expr}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')`

/**
 * encodeURIComponent of a text: identity for the characters it leaves alone (every paper id is
 * MED-<n> or PPR-<n>), otherwise each other character's UTF-8 bytes as %XX. The result needs no
 * JSON escaping: it is ASCII letters, digits, -_.!~*'() and %.
 */
export const uriComponent = (expr: string) => `case when ${expr} ~ '^[A-Za-z0-9_.!~*''()-]*$' then ${expr}
  else (select string_agg(case when c ~ '^[A-Za-z0-9_.!~*''()-]$' then c
      else upper(regexp_replace(encode(convert_to(c, 'UTF8'), 'hex'), '(..)', '%\\1', 'g')) end, '' order by n)
    from regexp_split_to_table(${expr}, '') with ordinality as chars(c, n)) end`

/**
 * An object's fields: for each, its key and an SQL text expression of its JSON value, or a nested
 * object (`nullWhen`: the condition under which the whole object is null).
 */
export type JsonField = { key: string; value: string } | { key: string; nullWhen: string | null; fields: JsonField[] }

/** A selection as src/modules/v1/fields parses `fields=`: for each kept key, true or the selection inside it. */
export type FieldSelection = { [key: string]: true | FieldSelection }

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`

/**
 * The SQL text expression of an object with `fields`, cut to `selection` as selectFields cuts it
 * (the object's own key order, a null object stays null). Null when the selection names a key the
 * fields do not have (the caller then serializes in JavaScript), so a new field in the schema can
 * never be silently dropped.
 */
export function jsonObject(fields: JsonField[], selection?: FieldSelection): string | null {
  const parts: string[] = []
  if (selection) for (const key of Object.keys(selection)) if (!fields.some((f) => f.key === key)) return null
  for (const field of fields) {
    const wanted = selection ? selection[field.key] : true
    if (wanted === undefined) continue
    let value: string | null
    if ('value' in field) value = field.value
    else {
      const inner = jsonObject(field.fields, wanted === true ? undefined : wanted)
      if (inner === null) return null
      value = field.nullWhen ? `case when ${field.nullWhen} then 'null' else ${inner} end` : inner
    }
    parts.push(literal(`${parts.length ? ',' : '{'}${JSON.stringify(field.key)}:`), value)
  }
  // One concat() call (one allocation) rather than a chain of ||, each of which copies the text so far.
  return parts.length ? `concat(${parts.join(', ')}, '}')` : `'{}'`
}
