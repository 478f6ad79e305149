/**
 * SQL expressions that write a value as the exact JSON text JSON.stringify writes for what the
 * drivers read of it, for answers assembled in PostgreSQL (issue 15: decoding every column into
 * objects and stringifying them again was most of a list page's CPU). PostgreSQL's own json output
 * differs in ways a client sees: json_build_object writes `{"a" : 1}`, jsonb `{"a": 1}`, a float8
 * `1e-05` where JavaScript writes `0.00001`, and jsonb keeps `1.0` where JavaScript writes `1`.
 * Each function takes an SQL expression and returns an SQL text expression (never NULL); none adds
 * a parameter. The names and readings are those of the papers' helpers written alongside
 * (json-text.ts on the speed-lists branch); the two files are meant to become one.
 */

/** A string, boolean or integer (or NULL) as JSON: to_json escapes strings like JSON.stringify (\" \\ \b \f \n \r \t, other controls as \u00xx). */
export const jsonString = (expr: string) => `coalesce(to_json(${expr})::text, 'null')`

/**
 * A float8 as JavaScript writes the Number the driver parsed from PostgreSQL's text: the same
 * shortest round-trip digits, but JavaScript writes 0.00001 where PostgreSQL writes 1e-05, 1e-7
 * for 1e-07, 1000000000000000 for 1e+15, 0 for -0, and null for NaN and the infinities. The usual
 * case (0.0001 ≤ |x| < 1e15) is PostgreSQL's own text; the rest goes through numeric, which writes
 * plain decimals, or drops the exponent's leading zeros.
 */
export const jsonNumber = (expr: string) => `(case when ${expr} is null then 'null'
  when ${expr} <> 0 and abs(${expr}) >= 1e-4 and abs(${expr}) < 1e15 then (${expr})::text
  when ${expr} = 0 then '0'
  when ${expr} = 'NaN'::float8 or ${expr} = 'Infinity'::float8 or ${expr} = '-Infinity'::float8 then 'null'
  when abs(${expr}) >= 1e-6 and abs(${expr}) < 1e21 then (${expr})::text::numeric::text
  else regexp_replace((${expr})::text, 'e([+-])0*([0-9])', 'e\\1\\2') end)`

/** A timestamptz as Date.toISOString() writes it: UTC, milliseconds (truncated, as a JS Date truncates the microseconds it parses), a Z. */
export const jsonTimestamp = (expr: string) =>
  `coalesce('"' || to_char((${expr}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')`

/**
 * encodeURIComponent of a text: itself when it has only the characters it leaves alone (every paper
 * id is MED-<n> or PPR-<n>), otherwise each other character's UTF-8 bytes as %XX.
 */
export const uriComponent = (expr: string) => `(case when ${expr} ~ '^[A-Za-z0-9_.!~*''()-]*$' then ${expr}
  else (select string_agg(case when ch ~ '^[A-Za-z0-9_.!~*''()-]$' then ch
      else upper(regexp_replace(encode(convert_to(ch, 'UTF8'), 'hex'), '(..)', '%\\1', 'g')) end, '' order by n)
    from regexp_split_to_table(${expr}, '') with ordinality as chars(ch, n)) end)`

/**
 * A jsonb object of scalars as JSON.stringify writes what JSON.parse made of its text: keys in
 * jsonb's order (which JSON.parse keeps), strings as jsonb escapes them (as to_json does), numbers
 * re-read as doubles. NULL when JavaScript must write it: nested objects or arrays, keys that look
 * like array indexes (JavaScript puts those first), numbers beyond a double, anything but an object.
 */
export const jsonbObjectText = (expr: string) => `(case when jsonb_typeof(${expr}) = 'object' and not exists (
    select from jsonb_each(${expr}) e where jsonb_typeof(e.value) in ('object', 'array') or e.key ~ '^[0-9]+$'
      or (jsonb_typeof(e.value) = 'number' and (abs((e.value::text)::numeric) > 1e300
        or (abs((e.value::text)::numeric) > 0 and abs((e.value::text)::numeric) < 1e-300))))
  then coalesce((select '{' || string_agg(to_json(e.key)::text || ':' || case when jsonb_typeof(e.value) = 'number'
      then ${jsonNumber('(e.value::text)::float8')} else e.value::text end, ',' order by e.i) || '}'
    from jsonb_each(${expr}) with ordinality as e(key, value, i)), '{}') end)`
