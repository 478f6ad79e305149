/**
 * The aliases an entity row carries (entities.aliases): every name the lexicon gives it, its key and
 * its ids as CURIEs (so HGNC:3942 still finds MTOR, now keyed NCBIGene:2475), all normalised. An
 * entity the lexicon does not know (a MeSH heading, a name a model produced) answers to its own name
 * and key.
 */
import { ENTITY_TYPES, entryByKey, namesOf } from './lexicon'
import { normalizeAlias } from './normalize'

const CURIE: Record<string, (id: string) => string> = {
  ncbigene: (id) => `NCBIGene:${id}`,
  pubchem: (id) => `PUBCHEM.COMPOUND:${id}`,
  taxon: (id) => `NCBITaxon:${id}`,
  mesh: (id) => `MESH:${id}`,
}

export function entityAliases(type: string, key: string, name: string): string[] {
  const entry = (ENTITY_TYPES as readonly string[]).includes(type) ? entryByKey(type, key) : undefined
  const ids = Object.entries(entry?.ids ?? {}).map(([kind, id]) => (CURIE[kind] ? CURIE[kind](id!) : id!))
  const names = entry ? [entry.name, key, ...namesOf(entry), ...ids] : [name, key]
  return [...new Set(names.map(normalizeAlias).filter(Boolean))]
}
