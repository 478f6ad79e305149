/**
 * Finds lexicon terms in text, fast: one pass over the tokens, extending a match token by token
 * while it is still a prefix of some term, and keeping the longest full term. Matching ignores case
 * and punctuation ("life-span" = "life span", "C. elegans" = "C elegans"), accepts simple plurals,
 * and matches short acronyms (4 characters or fewer, such as CMA or ALS) only in their own case,
 * so that common words are not read as gene symbols.
 */
import { lexicon, type LexiconEntry } from '../../lexicon/lexicon'

export type Mention = { entry: LexiconEntry; start: number; end: number; text: string }

type Token = { norm: string; raw: string; start: number; end: number }

const TOKEN = /[\p{L}\p{N}+]+/gu

export function tokenize(text: string): Token[] {
  const out: Token[] = []
  for (const m of text.matchAll(TOKEN)) {
    out.push({ norm: m[0].toLowerCase(), raw: m[0], start: m.index!, end: m.index! + m[0].length })
  }
  return out
}

function plurals(word: string): string[] {
  if (word.length < 4 || /\d$/.test(word)) return []
  if (/(s|x|ch|sh)$/.test(word)) return [word + 'es']
  if (/[^aeiou]y$/.test(word)) return [word.slice(0, -1) + 'ies', word + 's']
  return [word + 's']
}

type Index = { terms: Map<string, LexiconEntry>; exact: Map<string, LexiconEntry>; prefixes: Set<string>; maxTokens: number }

function buildIndex(entries: readonly LexiconEntry[]): Index {
  const terms = new Map<string, LexiconEntry>()
  const exact = new Map<string, LexiconEntry>()
  const prefixes = new Set<string>()
  let maxTokens = 1
  for (const entry of entries) {
    for (const term of [entry.name, ...entry.synonyms]) {
      const tokens = tokenize(term)
      if (tokens.length === 0) continue
      if (tokens.length === 1 && tokens[0].norm.length <= 4 && term.trim() !== term.trim().toLowerCase()) {
        if (!exact.has(tokens[0].raw)) exact.set(tokens[0].raw, entry)
        continue
      }
      const words = tokens.map((t) => t.norm)
      const last = words[words.length - 1]
      for (const variant of [last, ...plurals(last)]) {
        const key = [...words.slice(0, -1), variant].join(' ')
        if (!terms.has(key)) terms.set(key, entry)
      }
      for (let i = 1; i < words.length; i++) prefixes.add(words.slice(0, i).join(' '))
      maxTokens = Math.max(maxTokens, words.length)
    }
  }
  return { terms, exact, prefixes, maxTokens }
}

/**
 * Everyday words for lexicon entries that the curated synonyms leave out because they would be wrong
 * as display names or ontology labels (irregular plurals, lab shorthand).
 */
const ALIASES: [string, string, string][] = [
  ['mice', 'organism', 'NCBITaxon:10090'], ['murine', 'organism', 'NCBITaxon:10090'],
  ['worms', 'organism', 'NCBITaxon:6239'], ['nematodes', 'organism', 'NCBITaxon:6239'],
  ['flies', 'organism', 'NCBITaxon:7227'], ['yeast', 'organism', 'NCBITaxon:4932'],
  ['senescent cells', 'hallmark', 'cellular-senescence'], ['senescent cell', 'hallmark', 'cellular-senescence'],
  ['sirtuins', 'pathway', 'sirtuin-signaling'], ['sirtuin', 'pathway', 'sirtuin-signaling'],
]

function withAliases(entries: readonly LexiconEntry[]): LexiconEntry[] {
  const byKey = new Map(entries.map((e) => [`${e.type}:${e.key}`, e]))
  const extra: LexiconEntry[] = []
  for (const [term, type, key] of ALIASES) {
    const entry = byKey.get(`${type}:${key}`)
    if (entry) extra.push({ ...entry, name: term, synonyms: [] })
  }
  return [...entries, ...extra]
}

const index = buildIndex(withAliases(lexicon))
const canonical = new Map(lexicon.map((e) => [`${e.type}:${e.key}`, e]))

/** Every lexicon term in `text`, left to right, longest match first, never overlapping. */
export function findMentions(text: string): Mention[] {
  const tokens = tokenize(text)
  const out: Mention[] = []
  for (let i = 0; i < tokens.length; i++) {
    let key = ''
    let best: { entry: LexiconEntry; last: number } | null = null
    for (let j = i; j < tokens.length && j - i < index.maxTokens; j++) {
      key = j === i ? tokens[j].norm : `${key} ${tokens[j].norm}`
      const hit = index.terms.get(key)
      if (hit) best = { entry: hit, last: j }
      if (!index.prefixes.has(key)) break
    }
    if (!best) {
      const acronym = index.exact.get(tokens[i].raw)
      if (acronym) best = { entry: acronym, last: i }
    }
    if (best) {
      const start = tokens[i].start
      const end = tokens[best.last].end
      const entry = canonical.get(`${best.entry.type}:${best.entry.key}`) ?? best.entry
      out.push({ entry, start, end, text: text.slice(start, end) })
      i = best.last
    }
  }
  return out
}

/** The lexicon entry a MeSH descriptor or short phrase names exactly, if any. */
export function lookupTerm(term: string): LexiconEntry | undefined {
  const tokens = tokenize(term)
  const hit = tokens.length === 1 && index.exact.has(tokens[0].raw) ? index.exact.get(tokens[0].raw) : index.terms.get(tokens.map((t) => t.norm).join(' '))
  return hit && (canonical.get(`${hit.type}:${hit.key}`) ?? hit)
}
