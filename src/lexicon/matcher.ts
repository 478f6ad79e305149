/**
 * Finds lexicon terms in text, fast: one pass over the tokens, extending a match token by token
 * while it is still a prefix of some term, and keeping the longest full term. Three kinds of term:
 * - names and synonyms, matched ignoring case and punctuation ("life-span" = "life span",
 *   "C. elegans" = "C elegans"), with simple plurals; a short acronym (4 characters or fewer, such as
 *   CMA or ALS) only in its own case, so that common words are not read as acronyms;
 * - symbols, matched only exactly as written: gene symbols ("CDKN2A", the mouse "Cdkn2a", "daf-16"),
 *   which the lexicon build keeps only where they are not also common abbreviations;
 * - abbreviations ("NR" for nicotinamide riboside), kept only where the same text names the entry
 *   another way or defines the abbreviation.
 * A text can define its own abbreviations: "nicotinamide riboside (NR)" makes every later "NR" in that
 * text a mention of nicotinamide riboside, whatever the lexicon says about NR.
 */
import { fullLexicon, type LexiconEntry } from './lexicon'

export type Mention = { entry: LexiconEntry; start: number; end: number; text: string }

type Token = { norm: string; raw: string; start: number; end: number }

/** A token is a run of letters, digits and "+" (any script); everything else separates tokens. */
const WORD_CHAR = /[\p{L}\p{N}+]/u
const ASCII_WORD = new Uint8Array(128).map((_, c) => (/[A-Za-z0-9+]/.test(String.fromCharCode(c)) ? 1 : 0))

/**
 * The character at `i` (a whole code point): its length in code units (2 outside the BMP), negative when it is not
 * a token character.
 */
function charAt(text: string, i: number): number {
  const c = text.charCodeAt(i)
  if (c < 128) return ASCII_WORD[c] ? 1 : -1
  const cp = text.codePointAt(i)!
  const length = cp > 0xffff ? 2 : 1
  return WORD_CHAR.test(String.fromCodePoint(cp)) ? length : -length
}

/**
 * Calls `each(start, end)` for every token of `text`, left to right. A loop over character codes with a table for
 * ASCII: a regular expression with Unicode classes cost twice as much, and this runs on every paper's text.
 */
function eachToken(text: string, each: (start: number, end: number) => void) {
  const n = text.length
  let i = 0
  while (i < n) {
    const first = charAt(text, i)
    if (first < 0) {
      i -= first
      continue
    }
    const start = i
    i += first
    while (i < n) {
      const next = charAt(text, i)
      if (next < 0) break
      i += next
    }
    each(start, i)
  }
}

export function tokenize(text: string): Token[] {
  const out: Token[] = []
  eachToken(text, (start, end) => {
    const raw = text.slice(start, end)
    out.push({ norm: raw.toLowerCase(), raw, start, end })
  })
  return out
}

/**
 * A bit per hash of the one-token keys of the index, where a match starts: two tokens in three of a paper's text
 * start no term, and the bit says so without hashing the token into the index's large map (a cache miss each).
 */
const FILTER_BITS = 21
/** FNV-1a over `s`'s UTF-16 code units from `from` to `to`, its top FILTER_BITS bits. */
function bitOf(s: string, from: number, to: number): number {
  let h = 0x811c9dc5
  for (let k = from; k < to; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193)
  return h >>> (32 - FILTER_BITS)
}
const mayStart = (filter: Uint32Array, bit: number) => (filter[bit >>> 5] & (1 << (bit & 31))) !== 0

/** Tokens as parallel arrays: one allocation per token (its lower-case form) instead of four; `bits` for the filter. */
type Scan = { norms: string[]; starts: number[]; ends: number[]; bits: number[] }

function scan(text: string): Scan {
  const lower = text.toLowerCase()
  const sameLength = lower.length === text.length // false only for the rare letters whose lower case is longer (İ)
  const out: Scan = { norms: [], starts: [], ends: [], bits: [] }
  eachToken(text, (start, end) => {
    const norm = sameLength ? lower.slice(start, end) : text.slice(start, end).toLowerCase()
    out.norms.push(norm)
    out.starts.push(start)
    out.ends.push(end)
    out.bits.push(sameLength ? bitOf(lower, start, end) : bitOf(norm, 0, norm.length))
  })
  return out
}

function plurals(word: string): string[] {
  if (word.length < 4 || /\d$/.test(word)) return []
  if (/(s|x|ch|sh)$/.test(word)) return [word + 'es']
  if (/[^aeiou]y$/.test(word)) return [word.slice(0, -1) + 'ies', word + 's']
  return [word + 's']
}

/** One way a term can be read: `raw` when the text must spell it exactly so; `context` for abbreviations. */
type Candidate = { entry: LexiconEntry; raw: string | null; context: boolean }
/**
 * One map for both questions a token sequence asks: is it a term (cands), and can a longer term start with it (prefix)?
 * `next` holds the nodes one token longer, so the scan walks token by token without building the joined key.
 */
type Node = { cands: Candidate[] | null; prefix: boolean; next: Map<string, Node> | null }
type Index = { nodes: Map<string, Node>; firsts: Uint32Array }

function buildIndex(entries: readonly LexiconEntry[]): Index {
  const nodes = new Map<string, Node>()
  const node = (key: string) => {
    let n = nodes.get(key)
    if (!n) nodes.set(key, (n = { cands: null, prefix: false, next: null }))
    return n
  }
  const add = (entry: LexiconEntry, term: string, kind: 'name' | 'symbol' | 'abbreviation') => {
    const tokens = tokenize(term)
    if (tokens.length === 0) return
    const words = tokens.map((t) => t.norm)
    const trimmed = term.trim()
    const acronym = tokens.length === 1 && tokens[0].norm.length <= 4 && trimmed !== trimmed.toLowerCase()
    const exact = kind !== 'name' || acronym
    const last = words[words.length - 1]
    for (const variant of exact ? [last] : [last, ...plurals(last)]) {
      const n = node([...words.slice(0, -1), variant].join(' '))
      // An exact spelling must match the text from the first token to the last, punctuation included.
      const raw = exact ? term.slice(tokens[0].start, tokens[tokens.length - 1].end) : null
      n.cands ??= []
      if (!n.cands.some((c) => c.entry === entry && c.raw === raw))
        n.cands.push({ entry, raw, context: kind === 'abbreviation' })
    }
    for (let i = 1; i < words.length; i++) node(words.slice(0, i).join(' ')).prefix = true
  }
  for (const entry of entries) {
    if (entry.matchName !== false) add(entry, entry.name, 'name')
    for (const s of entry.synonyms) add(entry, s, 'name')
    for (const s of entry.symbols ?? []) add(entry, s, 'symbol')
    for (const s of entry.abbreviations ?? []) add(entry, s, 'abbreviation')
  }
  // Every prefix of a term is a node (above), so each longer node hangs under the one without its last token.
  const firsts = new Uint32Array(2 ** (FILTER_BITS - 5))
  for (const [key, n] of nodes) {
    const cut = key.lastIndexOf(' ')
    if (cut < 0) {
      const bit = bitOf(key, 0, key.length)
      firsts[bit >>> 5] |= 1 << (bit & 31)
      continue
    }
    const parent = nodes.get(key.slice(0, cut))!
    ;(parent.next ??= new Map()).set(key.slice(cut + 1), n)
  }
  return { nodes, firsts }
}

let index: Index | null = null
/** The index is built on first use (about 0.3 s for the whole lexicon), not when the module loads. */
const getIndex = () => (index ??= buildIndex(fullLexicon()))

/** The first candidate the text's spelling (text[start, end)) satisfies; plain readings before abbreviations. */
function pick(list: Candidate[], text: string, start: number, end: number, allowContext: boolean): Candidate | null {
  let fallback: Candidate | null = null
  for (const c of list) {
    if (c.raw !== null && (c.raw.length !== end - start || !text.startsWith(c.raw, start))) continue
    if (!c.context) return c
    if (allowContext) fallback ??= c
  }
  return fallback
}

const keyOf = (e: LexiconEntry) => `${e.type}:${e.key}`
/** "(NR)" right after a mention: an abbreviation the text defines for it. */
const DEFINITION = /^\s*[(\[]\s*([^\s()[\];,]{2,12})\s*[)\]]/
const OPENS = /^\s*[(\[]/

/** Every lexicon term in `text`, left to right, longest match first, never overlapping. */
export function findMentions(text: string): Mention[] {
  const { nodes, firsts } = getIndex()
  const { norms, starts, ends, bits } = scan(text)
  const out: (Mention & { context: boolean })[] = []
  for (let i = 0; i < norms.length; i++) {
    // A token holds no space, so only a one-token key can be its node; without the key's bit there is none.
    if (!mayStart(firsts, bits[i])) continue
    let best: Candidate | null = null
    let last = i
    let n = nodes.get(norms[i])
    for (let j = i; n; n = n.next && j + 1 < norms.length ? n.next.get(norms[++j]) : undefined) {
      if (n.cands) {
        const c = pick(n.cands, text, starts[i], ends[j], true)
        if (c) {
          best = c
          last = j
        }
      }
    }
    if (best) {
      const start = starts[i]
      const end = ends[last]
      out.push({ entry: best.entry, start, end, text: text.slice(start, end), context: best.context })
      i = last
    }
  }
  return resolveAbbreviations(text, starts, ends, foreignAbbreviations(text, out))
}

/** "(TRAP)", "(AML)": an abbreviation the text defines in brackets. */
/** "(TRAP)", and "(AMPH; 15 mg oral)": an abbreviation defined in a bracket, alone or first in it. */
const BRACKETED = /\(([A-Za-z][A-Za-z0-9-]{1,9})(?:\)|[;,]\s)/g
/** Words a long form shares with a name that say nothing of what it names. */
const COMMON = new Set([
  'protein',
  'proteins',
  'factor',
  'receptor',
  'related',
  'family',
  'member',
  'human',
  'type',
  'like',
  'domain',
  'containing',
  'subunit',
  'with',
  'from',
  'cell',
  'cells',
])
const contentWords = (s: string) =>
  s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 4 && !COMMON.has(w))

/**
 * The words before "(ABBR)" that ABBR abbreviates, found as Schwartz and Hearst do: ABBR's letters, last to first,
 * in the words before the bracket, its first letter starting a word. Null when no such long form stands there.
 */
export function longFormBefore(text: string, at: number, abbr: string): string | null {
  const before = text.slice(Math.max(0, at - 120), at)
  const clause = before
    .slice(
      Math.max(
        before.lastIndexOf(','),
        before.lastIndexOf(';'),
        before.lastIndexOf('.'),
        before.lastIndexOf('('),
        before.lastIndexOf(')'),
      ) + 1,
    )
    .trimEnd()
  const letters = abbr.toLowerCase().replace(/[^a-z0-9]/g, '')
  const lower = clause.toLowerCase()
  let j = lower.length - 1
  for (let k = letters.length - 1; k >= 0; k--) {
    const c = letters[k]
    while (j >= 0 && (lower[j] !== c || (k === 0 && j > 0 && /[\p{L}\p{N}]/u.test(lower[j - 1])))) j--
    if (j < 0) return null
    j--
  }
  const start = lower.lastIndexOf(' ', j + 1) + 1
  const form = clause.slice(start).trim()
  return form.split(/\s+/).length <= letters.length + 3 && form.length > abbr.length ? form : null
}

/** ABBR's letters are the initials of `name`'s words, in order ("acute myeloid leukemia" for AML). */
function initialsOf(name: string, abbr: string): boolean {
  const initials = name
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w[0])
  let k = 0
  for (const c of initials) if (k < abbr.length && c === abbr[k]) k++
  return k === abbr.length && initials[0] === abbr[0]
}

/**
 * Drops the mentions of an abbreviation the same text defines as something else: "traffic-related air pollution
 * (TRAP)" is not the gene TRAP, "angiomyolipoma (AML)" not acute myeloid leukaemia, "neoadjuvant chemotherapy (NAC)"
 * not N-acetylcysteine. Only where the entry has a name that ABBR abbreviates letter by letter and the text's long
 * form shares no word with any of its names; an entry whose names say nothing of the letters keeps its mentions.
 */
function foreignAbbreviations<M extends Mention>(text: string, found: M[]): M[] {
  if (found.length === 0 || !text.includes('(')) return found
  let foreign: Set<string> | null = null
  let texts: Set<string> | null = null
  for (const match of text.matchAll(BRACKETED)) {
    const abbr = match[1]
    texts ??= new Set(found.map((m) => m.text))
    if (!texts.has(abbr) || foreign?.has(abbr)) continue
    const mentions = found.filter((m) => m.text === abbr)
    const at = match.index!
    // The mention right before the bracket is the long form, of the same entry or another: the text says which.
    const form = longFormBefore(text, at, abbr)
    if (!form) continue
    const words = new Set(contentWords(form))
    // The entry's own long forms: its names that ABBR abbreviates ("acute myeloid leukemia" for AML), not those that
    // hold it ("mTORC1 signaling"). Only an entry that has one can be told apart from the text's long form.
    // "adipose-derived stromal cells (ASCs)": a plural abbreviation's letters are the singular's.
    const lower = abbr.replace(/(?<=[A-Z0-9])s$/, '').toLowerCase()
    const other = (e: LexiconEntry) => {
      // "amphiphysin" for AMPH: a one-word name the symbol cuts short is a long form too.
      const forms = [e.name, ...e.synonyms].filter(
        (n) =>
          (!n.toLowerCase().includes(lower) && initialsOf(n, lower)) ||
          (/^\p{L}+$/u.test(n) && n.toLowerCase().startsWith(lower) && n.length >= lower.length + 3),
      )
      return forms.length > 0 && !forms.some((n) => contentWords(n).some((w) => words.has(w)))
    }
    if (mentions.every((m) => other(m.entry))) (foreign ??= new Set()).add(abbr)
  }
  return foreign ? found.filter((m) => !foreign!.has(m.text)) : found
}

/** Keeps abbreviations the text backs up, and adds the abbreviations the text defines itself. */
function resolveAbbreviations(
  text: string,
  starts: number[],
  ends: number[],
  found: (Mention & { context: boolean })[],
): Mention[] {
  const defined = new Map<string, LexiconEntry>()
  for (const m of found) {
    if (m.context || !OPENS.test(text.slice(m.end, m.end + 3))) continue
    const def = DEFINITION.exec(text.slice(m.end, m.end + 20))
    const abbr = def?.[1]
    if (abbr && /[A-Z]/.test(abbr) && abbr[0].toLowerCase() === m.text[0].toLowerCase()) defined.set(abbr, m.entry)
  }
  const anyContext = found.some((m) => m.context)
  if (!anyContext && defined.size === 0) return found
  const named = new Set(anyContext ? found.filter((m) => !m.context).map((m) => keyOf(m.entry)) : [])
  const kept: Mention[] = []
  for (const m of found) {
    const own = defined.get(m.text)
    if (own) kept.push({ entry: own, start: m.start, end: m.end, text: m.text })
    else if (!m.context || named.has(keyOf(m.entry))) kept.push(m)
  }
  if (defined.size === 0) return kept
  // Defined abbreviations the lexicon does not know: every later use in the text, where nothing else matched.
  const taken = kept.map((m) => [m.start, m.end] as const)
  const extra: Mention[] = []
  for (let i = 0; i < starts.length; i++) {
    const raw = text.slice(starts[i], ends[i])
    const entry = defined.get(raw)
    if (entry && !taken.some(([s, e]) => starts[i] < e && ends[i] > s))
      extra.push({ entry, start: starts[i], end: ends[i], text: raw })
  }
  return extra.length ? [...kept, ...extra].sort((a, b) => a.start - b.start) : kept
}

/**
 * Answers of lookupTerm by term: the index never changes once built, and the analyzer asks the same MeSH descriptors
 * of every paper (for its organism and its entities). Emptied when full, so arbitrary keywords cannot grow it forever.
 */
const looked = new Map<string, LexiconEntry | undefined>()
const LOOKED_MAX = 50_000

/** The lexicon entry a MeSH descriptor, keyword or short phrase names exactly, if any (never by abbreviation). */
export function lookupTerm(term: string): LexiconEntry | undefined {
  if (looked.has(term)) return looked.get(term)
  const tokens = tokenize(term)
  let entry: LexiconEntry | undefined
  if (tokens.length > 0) {
    const list = getIndex().nodes.get(tokens.map((t) => t.norm).join(' '))?.cands
    entry = list ? pick(list, term, tokens[0].start, tokens[tokens.length - 1].end, false)?.entry : undefined
  }
  if (looked.size >= LOOKED_MAX) looked.clear()
  looked.set(term, entry)
  return entry
}

/** The lexicon key a name resolves to within one entity type, if any. */
export function resolveEntityName(type: string, name: string): string | undefined {
  const entry = lookupTerm(name)
  return entry?.type === type ? entry.key : undefined
}
