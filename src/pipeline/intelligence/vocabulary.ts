/**
 * How claims are made comparable: organisms named in any of their spellings map to one key (the
 * lexicon's taxon), relations without a direction still say which way they point, and sexes are
 * read in their common spellings. The refresh passes these tables to SQL as arrays, so the database
 * and the request parameters normalise alike.
 */
import { curatedLexicon, entriesOfType, type LexiconEntry } from '../../lexicon/lexicon'
import { latinName } from '../analysis/builtin/claims'

export type OrganismRef = { key: string; label: string }

/** Plurals and everyday names that abstracts and models use for the common model organisms. */
const EXTRA_TERMS: Record<string, string[]> = {
  'NCBITaxon:9606': [
    'humans',
    'people',
    'participants',
    'patients',
    'adults',
    'older adults',
    'men',
    'women',
    'h. sapiens',
  ],
  'NCBITaxon:10090': ['mice', 'mus', 'm. musculus'],
  'NCBITaxon:10116': ['rats', 'r. norvegicus'],
  'NCBITaxon:6239': ['worms', 'nematodes', 'nematode', 'caenorhabditis'],
  'NCBITaxon:7227': ['flies', 'fruit flies', 'fly'],
  'NCBITaxon:4932': ['yeast'],
  'NCBITaxon:105023': ['killifish'],
  'NCBITaxon:7955': ['zebrafish larvae'],
  'NCBITaxon:9615': ['dogs', 'companion dogs'],
  'NCBITaxon:9544': ['rhesus macaques', 'rhesus monkeys', 'macaques', 'monkeys'],
  'NCBITaxon:9541': ['cynomolgus macaques', 'cynomolgus monkeys'],
  'NCBITaxon:30608': ['grey mouse lemurs', 'gray mouse lemurs', 'mouse lemurs'],
  'NCBITaxon:10036': ['hamster', 'hamsters', 'golden hamsters', 'syrian hamsters'],
  'NCBITaxon:10141': ['guinea pigs'],
  'NCBITaxon:9823': ['pigs'],
  'NCBITaxon:9986': ['rabbits'],
  'NCBITaxon:9483': ['marmosets', 'common marmosets'],
  'NCBITaxon:10181': ['naked mole-rats', 'naked mole rats'],
  'NCBITaxon:7460': ['honey bees', 'honeybees', 'bees'],
}

const normal = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ')

function organismTable(): Map<string, OrganismRef> {
  const table = new Map<string, OrganismRef>()
  for (const entry of entriesOfType('organism') as LexiconEntry[]) {
    const ref = { key: entry.key, label: latinName(entry) }
    for (const term of [entry.name, ...entry.synonyms, ...(EXTRA_TERMS[entry.key] ?? []), entry.key]) {
      if (!table.has(normal(term))) table.set(normal(term), ref)
    }
  }
  return table
}

const ORGANISMS = organismTable()

/** The organism a claim names, as a key and a display name; unknown names key as themselves. */
export function organismRef(text: string): OrganismRef {
  const known = ORGANISMS.get(normal(text))
  return known ?? { key: `text:${normal(text)}`, label: text.trim() }
}

/** [terms, keys, labels], for `unnest` in the refresh. */
export function organismArrays(): [string[], string[], string[]] {
  const entries = [...ORGANISMS]
  return [entries.map(([term]) => term), entries.map(([, r]) => r.key), entries.map(([, r]) => r.label)]
}

export const HUMAN_KEY = 'NCBITaxon:9606'

/**
 * Which way a relation points when a claim gives no direction (a model may leave it out): +1 the
 * subject raises the object, -1 it lowers it, 0 neither. A stated direction always wins.
 */
export const RELATION_POLARITY: Record<string, 1 | -1> = {
  increases: 1,
  increase: 1,
  elevates: 1,
  upregulates: 1,
  activates: 1,
  promotes: 1,
  induces: 1,
  enhances: 1,
  improves: 1,
  restores: 1,
  extends_lifespan: 1,
  extends: 1,
  prolongs: 1,
  extends_healthspan: 1,
  raises: 1,
  stimulates: 1,
  causes: 1,
  accelerates: 1,
  increases_risk_of: 1,
  worsens: 1,
  decreases: -1,
  decrease: -1,
  reduces: -1,
  lowers: -1,
  inhibits: -1,
  suppresses: -1,
  downregulates: -1,
  impairs: -1,
  attenuates: -1,
  shortens_lifespan: -1,
  shortens: -1,
  protects_against: -1,
  reduces_risk_of: -1,
  prevents: -1,
  blocks: -1,
  delays: -1,
  slows: -1,
  alleviates: -1,
  ameliorates: -1,
  mitigates: -1,
}

export function polarityArrays(): [string[], number[]] {
  const entries = Object.entries(RELATION_POLARITY)
  return [entries.map(([r]) => r), entries.map(([, p]) => p)]
}

/** Spellings of the two sexes; anything else ("both", "mixed") states no condition. */
export const SEX_TERMS: Record<string, 'male' | 'female'> = {
  male: 'male',
  males: 'male',
  man: 'male',
  men: 'male',
  m: 'male',
  boys: 'male',
  female: 'female',
  females: 'female',
  woman: 'female',
  women: 'female',
  f: 'female',
  girls: 'female',
}

export function sexArrays(): [string[], string[]] {
  const entries = Object.entries(SEX_TERMS)
  return [entries.map(([t]) => t), entries.map(([, s]) => s)]
}

/**
 * Names and synonyms of lexicon entries that name exactly one entry, lower case, with that entry's
 * type and key: an unresolved claim side whose words are one of them is grouped with the entity.
 * Organisms and tissues are left out (they are never claim sides).
 */
export function termArrays(): [string[], string[], string[]] {
  const owners = new Map<string, Set<string>>()
  for (const e of curatedLexicon) {
    if (e.type === 'organism' || e.type === 'tissue') continue
    for (const term of [e.name, ...e.synonyms]) {
      const t = normal(term)
      if (!owners.has(t)) owners.set(t, new Set())
      owners.get(t)!.add(`${e.type}\u0000${e.key}`)
    }
  }
  const unique = [...owners]
    .filter(([, o]) => o.size === 1)
    .map(([t, o]) => [t, ...[...o][0]!.split('\u0000')] as [string, string, string])
  return [unique.map((u) => u[0]), unique.map((u) => u[1]), unique.map((u) => u[2])]
}
