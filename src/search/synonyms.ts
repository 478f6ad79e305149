/**
 * Search that knows an entity's other names: `p16` also finds CDKN2A and p16INK4a,
 * `sirolimus` also finds rapamycin, `NR` also finds nicotinamide riboside. The vocabulary is the
 * curated lexicon's genes and interventions (src/lexicon), so PostgreSQL (ts_rewrite of the parsed
 * query: tiers.ts) and Meilisearch (its `synonyms` setting: meilisearch/documents.ts) expand alike.
 *
 * The rules, the same on both backends:
 * - A name is expanded as a whole word, or as whole consecutive words (at most 3: Meilisearch looks
 *   synonyms up for terms of up to 3 words), never inside a longer word: `temsirolimus` is its own
 *   word and `NR` never matches inside `NRF2`. Case does not matter (both backends fold case; an entity
 *   name typed in lower case means the entity as surely as in capitals).
 * - Quoted phrases and -excluded words stay literal.
 * - What a typed name expands to: the entry's name, synonyms and gene symbols. Not its abbreviations
 *   (`NR`, `RAPA`), nor letters-only names of 4 characters or fewer: those would be matched in every
 *   paper where the same letters mean something else ("NR: not reported"). They still expand
 *   when typed: the user said what they meant.
 * - The lexicon's look-up-only names (ambiguous: ARF, P14) never expand, nor a name two entries share.
 * - Only genes and interventions: organisms, tissues and the other types are ordinary words
 *   (`mice`, `skin`), and reading `mice` as `Mus musculus` would change what common queries mean.
 */
import { curatedLexicon, type LexiconEntry } from '../lexicon/lexicon'
import type { PaperFilters } from '../resources/papers/queries'
import { isNegated, joinNumberHyphens, readWebsearch } from './websearch'

/** The entity types whose names expand. */
const EXPANDED_TYPES = new Set(['gene', 'intervention'])
/** At most this many other names per entry, in the lexicon's order (name, synonyms, symbols). */
const MAX_ALTERNATIVES = 12
/** Names of up to this many words expand (Meilisearch's limit for synonym terms). */
const MAX_WORDS = 3

/** How a name is compared: folded case and accents, one space between words, GLP-1 as GLP1 (websearch.ts). */
export function foldName(text: string): string {
  return joinNumberHyphens(text).normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim().split(/\s+/).join(' ')
}

/** One lexicon entry's names as search knows them. */
export type SynonymEntry = { type: string; key: string; name: string; alternatives: string[] }

/** An expansion of a query: the words as typed, the names to search as well, and the entry they name. */
export type Expansion = { text: string; alternatives: string[]; entry: SynonymEntry }

const isShortLetters = (name: string) => name.length <= 4 && /^[\p{L}]+$/u.test(name)

function alternativesOf(entry: LexiconEntry): string[] {
  const excluded = new Set([...(entry.lookupOnly ?? []), ...(entry.abbreviations ?? [])].map(foldName))
  const seen = new Set<string>()
  const out: string[] = []
  for (const name of [entry.name, ...entry.synonyms, ...(entry.symbols ?? [])]) {
    const folded = foldName(name)
    if (!folded || seen.has(folded) || excluded.has(folded) || isShortLetters(name) || name.includes('"')) continue
    seen.add(folded)
    out.push(name)
    if (out.length === MAX_ALTERNATIVES + 1) break // one more: the typed name is taken out of them
  }
  return out
}

type Vocabulary = { byName: Map<string, SynonymEntry>; entries: SynonymEntry[] }
let vocabulary: Vocabulary | null = null

/** Folded name -> the one entry it names (built on first use from the curated lexicon). */
function loadVocabulary(): Vocabulary {
  if (vocabulary) return vocabulary
  const byName = new Map<string, SynonymEntry | null>() // null: shared by two entries
  const entries: SynonymEntry[] = []
  for (const entry of curatedLexicon) {
    if (!EXPANDED_TYPES.has(entry.type)) continue
    const synonymEntry = { type: entry.type, key: entry.key, name: entry.name, alternatives: alternativesOf(entry) }
    if (synonymEntry.alternatives.length === 0) continue
    entries.push(synonymEntry)
    const lookupOnly = new Set((entry.lookupOnly ?? []).map(foldName))
    const triggers = new Set(
      [entry.name, ...entry.synonyms, ...(entry.symbols ?? []), ...(entry.abbreviations ?? [])].map(foldName),
    )
    for (const trigger of triggers) {
      if (!trigger || lookupOnly.has(trigger) || trigger.split(' ').length > MAX_WORDS) continue
      const other = byName.get(trigger)
      byName.set(trigger, other === undefined || other === synonymEntry ? synonymEntry : null)
    }
  }
  const unambiguous = new Map([...byName].filter((e): e is [string, SynonymEntry] => e[1] !== null))
  vocabulary = { byName: unambiguous, entries }
  return vocabulary
}

const wordsOf = (name: string) =>
  ` ${foldName(name)
    .split(/[^\p{L}\p{N}+]+/u)
    .filter(Boolean)
    .join(' ')} `

/**
 * The names to search besides `typed`, for an entry it names. A name that holds another one, or the
 * typed one, as whole words finds nothing more and only makes the query longer ("Rapamycin
 * (Sirolimus)" beside sirolimus, "nicotinamide riboside chloride" beside nicotinamide riboside).
 */
function othersThan(entry: SynonymEntry, typed: string): string[] {
  const others = entry.alternatives.filter((a) => foldName(a) !== foldName(typed))
  const held = [typed, ...others].map(wordsOf)
  // (Two names of the same words, spelt apart by punctuation, keep one: the first.)
  return others
    .filter(
      (a, i) => !held.some((h, j) => j !== i + 1 && wordsOf(a).includes(h) && (j <= i || h.length < wordsOf(a).length)),
    )
    .slice(0, MAX_ALTERNATIVES)
}

/**
 * The names in `q` (read as websearch.ts reads it) that expand, longest first at each place, each
 * once. Phrases and exclusions are left alone.
 */
export function expandQuery(q: string): Expansion[] {
  const { byName } = loadVocabulary()
  const found = new Map<string, Expansion>()
  for (const group of readWebsearch(q)) {
    let i = 0
    while (i < group.length) {
      let matched = 0
      for (let n = Math.min(MAX_WORDS, group.length - i); n >= 1 && matched === 0; n--) {
        const words = group.slice(i, i + n)
        if (words.some((o) => o === null || o.phrase || isNegated(o))) continue
        const text = words.map((o) => o!.text).join(' ')
        const entry = byName.get(foldName(text))
        if (!entry) continue
        matched = n
        const alternatives = othersThan(entry, text)
        if (alternatives.length > 0 && !found.has(foldName(text)))
          found.set(foldName(text), { text, alternatives, entry })
      }
      i += Math.max(matched, 1)
    }
  }
  return [...found.values()]
}

/**
 * Meilisearch's `synonyms` setting: every name that expands (folded: Meilisearch folds case and
 * accents itself) to the names it expands to. Sorted, so that a setting read back compares equal.
 */
export function meilisearchSynonyms(): Record<string, string[]> {
  const { byName } = loadVocabulary()
  const synonyms: Record<string, string[]> = {}
  for (const name of [...byName.keys()].sort()) {
    const alternatives = othersThan(byName.get(name)!, name)
    if (alternatives.length > 0) synonyms[name] = alternatives
  }
  return synonyms
}

/**
 * The /papers `q` filter (src/resources/papers/queries.ts) with its names expanded as /search expands them, so that
 * both find the same papers for `q` (each in its own order): the list, its count and group_by, and the site's search
 * feed.
 */
export const queryFilter = (q: string | undefined): Pick<PaperFilters, 'q' | 'expansions'> =>
  q ? { q, expansions: expandQuery(q) } : { q }
