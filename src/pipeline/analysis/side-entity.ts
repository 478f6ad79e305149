/**
 * The entity a claim side names when its whole text is one of a lexicon entry's names: the same
 * reading for every analyzer (built-in phrases, a model's answers) and for claims already stored
 * (./resolve-claim-sides.ts). A side reads as the matcher reads a text (names and synonyms in any
 * case, with plurals; symbols and short acronyms as written), and failing that by its normalised
 * spelling ("P16-INK4A", "mtor") when that names one entry only. An abbreviation with no text to
 * back it ("NR") names nothing, and neither does a longer word that holds a name: "temsirolimus" is
 * temsirolimus, never sirolimus.
 */
import { fullLexicon, type LexiconEntry } from '../../lexicon/lexicon'
import { normalizeAlias } from '../../lexicon/normalize'
import { lookupTerm } from '../../lexicon/matcher'
import type { ClaimSide } from './types'

/** Bump when the reading changes, so the claims already stored are read again (./resolve-claim-sides.ts). */
export const SIDE_RULES = 3

let byNormalised: Map<string, LexiconEntry | null> | null = null

/** Normalised name, synonym or symbol -> its entry; null where two entries share the spelling. */
function normalisedNames(): Map<string, LexiconEntry | null> {
  if (byNormalised) return byNormalised
  const map = new Map<string, LexiconEntry | null>()
  for (const entry of fullLexicon()) {
    if (entry.matchName === false) continue
    for (const name of [entry.name, ...entry.synonyms, ...(entry.symbols ?? [])]) {
      const norm = normalizeAlias(name)
      if (norm.length < 3) continue
      const held = map.get(norm)
      map.set(norm, held === undefined || held === entry ? entry : null)
    }
  }
  return (byNormalised = map)
}

let symbolsByNormalised: Map<string, LexiconEntry | null> | null = null

/**
 * Normalised gene symbol -> its gene, for symbols written in another case or with a hyphen ("Rheb" for RHEB, "B-Raf"
 * for BRAF); null where two genes share the spelling. Only for sides written with a capital (see sideEntry).
 */
function normalisedSymbols(): Map<string, LexiconEntry | null> {
  if (symbolsByNormalised) return symbolsByNormalised
  const map = new Map<string, LexiconEntry | null>()
  for (const entry of fullLexicon()) {
    if (entry.type !== 'gene' || entry.ids.taxon) continue // human genes; model organisms write their own symbols
    for (const symbol of [entry.name, ...(entry.symbols ?? [])]) {
      const norm = normalizeAlias(symbol)
      if (norm.length < 3) continue
      const held = map.get(norm)
      map.set(norm, held === undefined || held === entry ? entry : null)
    }
  }
  for (const entry of fullLexicon()) {
    // A symbol that is also another entry's name or synonym ("Rest", "Clock") is not read this way.
    if (entry.type === 'gene' && !entry.ids.taxon) continue
    for (const name of [entry.name, ...entry.synonyms, ...(entry.lookupOnly ?? [])]) {
      const norm = normalizeAlias(name)
      if (map.has(norm) && map.get(norm) !== entry) map.set(norm, null)
    }
  }
  return (symbolsByNormalised = map)
}

/** Quotes, brackets and a leading article around a side are not part of its name. */
const bare = (text: string) =>
  text
    .trim()
    .replace(/^["'“(\[]+|["'”)\].,;:]+$/g, '')
    .replace(/^(?:the|a|an)\s+/i, '')
    .trim()

/** The lexicon entry the whole of `text` names, if any (within `types` when given). */
export function sideEntry(text: string, types?: ReadonlySet<string>): LexiconEntry | undefined {
  const name = bare(text)
  if (!name || name.length > 200) return undefined
  const fits = (e: LexiconEntry | null | undefined) => (e && (!types || types.has(e.type)) ? e : undefined)
  return (
    fits(lookupTerm(name)) ??
    fits(normalisedNames().get(normalizeAlias(name))) ??
    // "Rheb", "B-Raf": a gene symbol in another spelling, when the side is that one word, written with a capital
    // and a small letter or a hyphen (a word in lower case, "rest", is a word).
    (/^[A-Z][\p{L}\p{N}-]*$/u.test(name) && /[a-z-]/.test(name.slice(1)) ? fits(symbolEntry(name)) : undefined) ??
    fits(geneSpelling(name))
  )
}

/** Greek letters as gene symbols write them: "PDGFRα" is PDGFRA, "LTβR" is LTBR. */
const GREEK_LETTER: Record<string, string> = { α: 'A', β: 'B', γ: 'G', δ: 'D', ε: 'E', κ: 'K' }
/**
 * A one-word gene name written as papers write it and the lexicon does not: a Greek letter for the symbol's Latin
 * one ("PDGFRα"), a phosphorylated form ("p-Akt", "phospho-GSK3β") or a recombinant human protein ("rhIGF-I"). The
 * form names the gene itself; only a gene symbol is read this way.
 */
function geneSpelling(name: string): LexiconEntry | undefined {
  if (/\s/.test(name)) return undefined
  const bareName = name.replace(/^(?:p|phospho)[-‐–](?=[A-Za-z])|^rh(?=[A-Z])/, '')
  const latin = bareName.replace(/[αβγδεκ]/g, (c) => GREEK_LETTER[c])
  if (latin === name || !/[A-Z]/.test(latin)) return undefined
  const entry = lookupTerm(latin) ?? normalisedNames().get(normalizeAlias(latin)) ?? symbolEntry(latin)
  return entry?.type === 'gene' ? entry : undefined
}

/** A capitalised word of letters alone ("Rheb", "Rest") is read as a symbol of the curated ageing genes only. */
function symbolEntry(name: string): LexiconEntry | null | undefined {
  const entry = normalisedSymbols().get(normalizeAlias(name))
  return entry && (entry.curated || /[\d-]|.\p{Lu}/u.test(name)) ? entry : undefined
}

/** The side `text` as an entity reference, or null. */
export function sideEntity(text: string, types?: ReadonlySet<string>): ClaimSide['entity'] {
  const e = sideEntry(text, types)
  return e ? { type: e.type, key: e.key, name: e.name, ids: e.ids as Record<string, string> } : null
}

/** A side with its entity filled in from its text when it has none. */
export const resolvedSide = (side: ClaimSide, types?: ReadonlySet<string>): ClaimSide =>
  side.entity ? side : { text: side.text, entity: sideEntity(side.text, types) }
