/**
 * Curated aging lexicon (genes, interventions, pathways, hallmarks, ...).
 *
 * The entries live in aging-lexicon.json so they can be curated as data and
 * reviewed in diffs; this module only adds types and the two lookups that
 * entity tagging needs. test/lexicon/lexicon.test.ts validates the data.
 */
import data from './aging-lexicon.json';

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
] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

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
] as const;
export type Topic = (typeof TOPICS)[number];

/** Identifier kinds an entry may carry; values are strings (digits or CURIEs). */
export type IdKind = 'pubchem' | 'chebi' | 'hgnc' | 'ncbigene' | 'taxon' | 'mesh' | 'go' | 'uberon' | 'hp';

export type LexiconEntry = {
  type: EntityType;
  /** Ontology id when one is known (e.g. "HGNC:3942"), else a lowercase hyphenated slug; unique within a type. */
  key: string;
  /** Display name. */
  name: string;
  /** Other spellings seen in abstracts; matched case-insensitively. */
  synonyms: string[];
  /** Only ids curators were confident of: a wrong id is worse than a missing one. */
  ids: Partial<Record<IdKind, string>>;
  topics: Topic[];
  /** Intervention class such as "senolytic"; null for every other type. */
  class: string | null;
  /** Gene keys an intervention targets; empty for every other type. */
  targets: string[];
};

/** All entries, in file order. */
export const lexicon: readonly LexiconEntry[] = data as LexiconEntry[];

/** Entries of one type, in file order. */
export function entriesOfType(type: EntityType): LexiconEntry[] {
  return lexicon.filter((entry) => entry.type === type);
}

/** Lower-cased name/synonym -> entry, built once; the first entry in file order wins a shared term. */
const bySynonym = new Map<string, LexiconEntry>();
for (const entry of lexicon) {
  for (const term of [entry.name, ...entry.synonyms]) {
    const norm = term.trim().toLowerCase();
    if (!bySynonym.has(norm)) bySynonym.set(norm, entry);
  }
}

/** Case-insensitive exact match on a name or synonym ("c. elegans" -> NCBITaxon:6239). */
export function findBySynonym(text: string): LexiconEntry | undefined {
  return bySynonym.get(text.trim().toLowerCase());
}
