/**
 * The lexicon: the curated aging entries (aging-lexicon.json: topics, classes, targets) merged with
 * public data (NCBI Gene, HAGR's GenAge and DrugAge, Open Genes) by scripts/lexicon/build.ts into
 * generated/curated.json (600 entries, loaded with this module) and generated/public.json (every
 * human protein-coding gene, GenAge's model-organism genes, DrugAge's compounds: about 23,000
 * entries, read on first use, so the API starts without them). SOURCES.md names each source and its
 * licence. One key scheme per type: genes NCBIGene:<id> (HGNC id in ids.hgnc where known),
 * compounds CHEBI:<id>, else PUBCHEM.COMPOUND:<cid>, organisms NCBITaxon:<id>; the other types keep
 * their ontology ids or slugs. test/lexicon/lexicon.test.ts validates the data.
 */
import { readFileSync } from 'node:fs'
import curatedData from './generated/curated.json' with { type: 'json' }
import { normalizeAlias } from './normalize'

/** Entity types; the order is the one used for display. */
export const ENTITY_TYPES = [
  'intervention',
  'gene',
  'pathway',
  'hallmark',
  'phenotype',
  'organism',
  'tissue',
  'disease',
  'biomarker',
] as const
export type EntityType = (typeof ENTITY_TYPES)[number]

/** Research topics an entry can be characteristic of (no catch-all "other"). */
export const TOPICS = [
  'senescence',
  'epigenetic-clocks',
  'mtor-rapamycin',
  'reprogramming',
  'nad-sirtuins',
  'mitochondria',
  'dietary-restriction',
  'glp-1',
  'inflammaging',
  'brain-aging',
] as const
export type Topic = (typeof TOPICS)[number]

/** Identifier kinds an entry may carry; values are strings (digits or CURIEs). */
export type IdKind = 'pubchem' | 'chebi' | 'hgnc' | 'ncbigene' | 'taxon' | 'mesh' | 'go' | 'uberon' | 'hp'

export type LexiconEntry = {
  type: EntityType
  /**
   * The type's key scheme (NCBIGene:2475, CHEBI:9168, NCBITaxon:10090, GO:0006914), else a slug; unique within a type.
   */
  key: string
  /** Display name (a gene's official symbol). */
  name: string
  /** Names matched in text ignoring case and punctuation (an acronym of 4 characters or fewer only in its own case). */
  synonyms: string[]
  /** Only ids curators or the source databases give: a wrong id is worse than a missing one. */
  ids: Partial<Record<IdKind, string>>
  topics: Topic[]
  /** Intervention class such as "senolytic"; null for every other type. */
  class: string | null
  /** Gene keys an intervention targets; empty for every other type. */
  targets: string[]
  /**
   * False when the name is not matched in text as it stands (a gene symbol is matched only through `symbols`, if at
   * all).
   */
  matchName?: false
  /** Spellings matched only exactly as written (gene symbols: "CDKN2A", the mouse "Cdkn2a", "daf-16"). */
  symbols?: string[]
  /** Short forms matched only where the same text also names the entry another way, or defines them ("NR"). */
  abbreviations?: string[]
  /** Names that find the entry through the API's look-ups but are never matched in text (ambiguous). */
  lookupOnly?: string[]
  /** True for the hand-curated entries (aging-lexicon.json), which the synthetic corpus draws on. */
  curated?: boolean
}

type StoredEntry = Omit<LexiconEntry, 'synonyms' | 'ids' | 'topics' | 'class' | 'targets'> & Partial<LexiconEntry>

const expand = (e: StoredEntry): LexiconEntry => ({
  ...e,
  synonyms: e.synonyms ?? [],
  ids: e.ids ?? {},
  topics: e.topics ?? [],
  class: e.class ?? null,
  targets: e.targets ?? [],
})

/** Changes whenever the generated lexicon does (a digest the build writes). */
export const LEXICON_VERSION: string = (curatedData as { version: string }).version

/** The hand-curated entries, in file order: the synthetic corpus (src/seed) is generated from these. */
export const curatedLexicon: readonly LexiconEntry[] = (curatedData as { entries: StoredEntry[] }).entries.map(expand)

let everything: readonly LexiconEntry[] | null = null

/**
 * All entries, curated first in their file order, then genes, model-organism genes and compounds (read on first call).
 */
export function fullLexicon(): readonly LexiconEntry[] {
  if (!everything) {
    const body = JSON.parse(readFileSync(new URL('./generated/public.json', import.meta.url), 'utf8')) as {
      entries: StoredEntry[]
    }
    everything = [...curatedLexicon, ...body.entries.map(expand)]
  }
  return everything
}

/** Entries of one type, in file order, from the curated entries unless another list is given. */
export function entriesOfType(type: EntityType, from: readonly LexiconEntry[] = curatedLexicon): LexiconEntry[] {
  return from.filter((entry) => entry.type === type)
}

const curatedByKey = new Map(curatedLexicon.map((e) => [`${e.type}:${e.key}`, e]))
let byTypeKey: Map<string, LexiconEntry> | null = null

/** The entry with this type and key; the curated entries answer without reading the rest. */
export function entryByKey(type: string, key: string): LexiconEntry | undefined {
  const curated = curatedByKey.get(`${type}:${key}`)
  if (curated) return curated
  byTypeKey ??= new Map(fullLexicon().map((e) => [`${e.type}:${e.key}`, e]))
  return byTypeKey.get(`${type}:${key}`)
}

let curatedByName: Map<string, LexiconEntry> | null = null

/** The curated entry of `type` that `text` names exactly (any of its names, compared normalised), if any. */
export function curatedNamed(type: EntityType, text: string): LexiconEntry | undefined {
  if (!curatedByName) {
    curatedByName = new Map()
    for (const e of curatedLexicon)
      for (const n of namesOf(e))
        if (!curatedByName.has(`${e.type}:${normalizeAlias(n)}`)) curatedByName.set(`${e.type}:${normalizeAlias(n)}`, e)
  }
  return curatedByName.get(`${type}:${normalizeAlias(text)}`)
}

/** Every name an entry answers to in look-ups: name, synonyms, symbols, abbreviations and look-up-only names. */
export function namesOf(entry: LexiconEntry): string[] {
  return [
    entry.name,
    ...entry.synonyms,
    ...(entry.symbols ?? []),
    ...(entry.abbreviations ?? []),
    ...(entry.lookupOnly ?? []),
  ]
}

/** Lower-cased name/synonym -> entry, built on first use; the first entry in file order wins a shared term. */
let bySynonym: Map<string, LexiconEntry> | null = null

/** Case-insensitive exact match on a name or synonym ("c. elegans" -> NCBITaxon:6239). */
export function findBySynonym(text: string): LexiconEntry | undefined {
  if (!bySynonym) {
    bySynonym = new Map()
    for (const entry of fullLexicon()) {
      for (const term of namesOf(entry)) {
        const norm = term.trim().toLowerCase()
        if (!bySynonym.has(norm)) bySynonym.set(norm, entry)
      }
    }
  }
  return bySynonym.get(text.trim().toLowerCase())
}
