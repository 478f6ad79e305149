/**
 * Our query syntax read exactly as PostgreSQL reads it, so that Meilisearch can be asked the same
 * question. geroscope_tsquery_parsed (drizzle/0001, 0008 and *_search_title_abstract_folding) rewrites the text, then
 * websearch_to_tsquery parses it; this file mirrors both, step for step (PostgreSQL's tsquery.c,
 * gettoken_query_websearch):
 *
 * - a word runs to whitespace, a double quote, a colon or one of ! & | ( ) <, which are otherwise ignored;
 * - "quoted text" is a phrase (an unbalanced quote runs to the end);
 * - a minus where an operand may start negates it ("- klotho" too: spaces after it are skipped);
 * - OR, in any case ("or", "Or"), between two operands is an alternative; elsewhere it is a stop word;
 * - everything else is AND, and AND binds tighter than OR: `rapamycin mice OR metformin worms`
 *   is (rapamycin AND mice) OR (metformin AND worms).
 *
 * With no parentheses in the syntax, every query is therefore alternatives (OR) of conjunctions
 * (AND) of operands, each operand perhaps negated. Which operands are stop words only PostgreSQL
 * knows (the text search configuration): src/search/syntax.ts asks it.
 */

/** GLP-1 and GLP1, IL-6 and IL6 are one name: the same rule as the SQL function geroscope_search_text. */
export const joinNumberHyphens = (text: string) => text.replace(/([\p{L}\p{N}])-(\p{N})/gu, '$1$2')

/** A slash separates names (NADH/NAD+, AMPK/mTOR): the same rule as geroscope_search_text. */
const separateSlash = (text: string) => text.replaceAll('/', ';')

/** A minus after ASCII punctuation separates words instead of excluding one (drizzle/0008_query_minus.sql). */
const separateMinus = (text: string) => text.replace(/([\x21-\x2c\x2e\x2f\x3a-\x40\x5b-\x60\x7b-\x7e])-/g, '$1 ')

/** The text websearch_to_tsquery is given: geroscope_tsquery_parsed's rewrites, in its order. */
export const queryText = (q: string) => separateMinus(separateSlash(joinNumberHyphens(q)))

/** A word or a quoted phrase, with how many minuses stand before it (PostgreSQL keeps !!x as such). */
export type Operand = { text: string; phrase: boolean; negations: number }

/** Alternatives (OR) of conjunctions (AND) of operands. */
export type WebsearchQuery = Operand[][]

export const isNegated = (o: Operand) => o.negations % 2 === 1

/** The operand as a query of its own, for PostgreSQL to say whether it has any searchable word. */
export const operandQuery = (o: Operand) => (o.phrase ? `"${o.text}"` : o.text)

const OPERATORS = new Set(['!', '&', '|', '(', ')', '<'])
// C isspace(). (The word parser's own test follows the database locale; with C and C.UTF-8, as
// here and on PGlite, other spaces, such as a no-break space, are word characters to both.)
const isSpace = (c: string) => /^[ \t\n\v\f\r]$/.test(c)
const isWordEnd = (c: string) => isSpace(c) || OPERATORS.has(c) || c === '"' || c === ':'
const isAlnum = (c: string) => /^[\p{L}\p{N}]$/u.test(c)

/** parse_or_operator: "or" followed by a non-word character and, later, something other than spaces. */
function orAt(chars: string[], i: number): boolean {
  if ((chars[i] ?? '').toLowerCase() !== 'o' || (chars[i + 1] ?? '').toLowerCase() !== 'r') return false
  const next = chars[i + 2]
  if (next === undefined || next === '-' || next === '_' || isAlnum(next)) return false
  for (let j = i + 3; j < chars.length; j++) if (!isSpace(chars[j])) return true
  return false
}

type Token = Operand | 'AND' | 'OR' | 'NOT' | 'STOP'

function tokenize(q: string): Token[] {
  const chars = [...queryText(q)]
  const tokens: Token[] = []
  let state: 'first' | 'operand' | 'operator' = 'first'
  let i = 0
  while (true) {
    const c = chars[i]
    if (state === 'operator') {
      if (c === undefined) return tokens
      if (orAt(chars, i)) {
        tokens.push('OR')
        state = 'operand'
        i += 2
      } else if (OPERATORS.has(c) || isSpace(c)) {
        i++
      } else {
        tokens.push('AND') // the next operand starts here
        state = 'operand'
      }
      continue
    }
    if (c === '-') {
      tokens.push('NOT')
      state = 'operand'
      i++
    } else if (c === '"') {
      let end = i + 1
      while (end < chars.length && chars[end] !== '"') end++
      tokens.push({ text: chars.slice(i + 1, end).join(''), phrase: true, negations: 0 })
      state = 'operator'
      i = end + 1
    } else if (c !== undefined && (OPERATORS.has(c) || isSpace(c))) {
      if (OPERATORS.has(c)) state = 'operand'
      i++
    } else {
      // At the end, an operator is left without its operand, which PostgreSQL fills with a stop
      // word (so "rapamycin -" is "rapamycin").
      if (c === undefined) {
        if (state === 'operand') tokens.push('STOP')
        return tokens
      }
      let end = i + 1
      while (end < chars.length && !isWordEnd(chars[end])) end++
      tokens.push({ text: chars.slice(i, end).join(''), phrase: false, negations: 0 })
      state = 'operator'
      i = end
    }
  }
}

/**
 * The query's structure, every operand included (stop words too: see `withoutStopWords`). Example:
 * `GLP-1 -mice OR "dietary restriction"` is [[GLP1, -mice], ["dietary restriction"]].
 */
export function readWebsearch(q: string): (Operand | null)[][] {
  const groups: (Operand | null)[][] = [[]]
  let negations = 0
  for (const token of tokenize(q)) {
    if (token === 'NOT') negations++
    else if (token === 'OR') groups.push([])
    else if (token === 'AND') continue
    else {
      groups[groups.length - 1].push(token === 'STOP' ? null : { ...token, negations })
      negations = 0
    }
  }
  return groups
}

/**
 * Drops what PostgreSQL drops: stop-word operands (kept[i] false for the i-th operand, in reading
 * order; `null` operands are stop words already), then conjunctions left empty. What remains is
 * what geroscope_tsquery matches.
 */
export function withoutStopWords<O extends Operand>(read: (O | null)[][], kept: boolean[]): O[][] {
  let n = 0
  const keep = (o: O | null): o is O => o !== null && kept[n++] === true
  return read.map((group) => group.filter(keep)).filter((group) => group.length > 0)
}

/** The operands of a reading, in the order `withoutStopWords` expects their `kept` flags. */
export const operandsOf = (read: (Operand | null)[][]): Operand[] => read.flat().filter((o): o is Operand => o !== null)
