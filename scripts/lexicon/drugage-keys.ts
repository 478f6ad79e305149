/**
 * DrugAge (../shared/fixtures/aging-databases) read against the lexicon: which lexicon intervention each DrugAge
 * compound is (the same ChEBI or PubChem id, else the same name), and the small helpers both comparisons of claims
 * with DrugAge use (scripts/eval-claims.ts, scripts/eval/drugage-agreement.ts).
 */
import { findBySynonym, fullLexicon } from '../../src/lexicon/lexicon'
import { drugAgeCompounds } from './sources'

export type Direction = 'increase' | 'decrease' | 'no_change'
/** "Mus musculus (C57BL/6)" -> "mus musculus". */
export const species = (s: string) => s.toLowerCase().split(/\s+/).slice(0, 2).join(' ')
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
export const sign = (x: number): Direction => (x > 0 ? 'increase' : x < 0 ? 'decrease' : 'no_change')

/** DrugAge compound id -> the key of the lexicon intervention it is, for the compounds the lexicon knows. */
export function drugAgeCompoundKeys(): Map<string, string> {
  const byPubchem = new Map<string, string>()
  const byChebi = new Map<string, string>()
  for (const e of fullLexicon()) {
    if (e.type !== 'intervention') continue
    if (e.ids.pubchem && !byPubchem.has(e.ids.pubchem)) byPubchem.set(e.ids.pubchem, e.key)
    if (e.ids.chebi && !byChebi.has(e.ids.chebi)) byChebi.set(e.ids.chebi, e.key)
  }
  const compoundKey = new Map<string, string>()
  for (const c of drugAgeCompounds()) {
    const named = findBySynonym(c.name)
    const key =
      (c.chebi && byChebi.get(c.chebi)) ||
      (c.cid && byPubchem.get(c.cid)) ||
      (named?.type === 'intervention' ? named.key : undefined)
    if (key) compoundKey.set(c.id, key)
  }
  return compoundKey
}
