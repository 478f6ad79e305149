/**
 * Small wording helpers shared by the abstract, claim and story writers: numbers as papers print
 * them, names as sentences use them, the study labels and the relation an effect implies.
 */
import type { Design, Effect } from './design'
import type { Outcome } from './outcomes'
import type { Random } from './random'

/** 12345 -> '12,345', without Intl (locale-independent and fast). */
export function thousands(n: number): string {
  const digits = String(n)
  if (digits.length <= 3) return digits
  let out = ''
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ','
    out += digits[i]
  }
  return out
}

export function percent(rng: Random, lo: number, hi: number): string {
  return rng.chance(0.5) ? String(rng.int(lo, hi)) : rng.float(lo, hi).toFixed(1)
}

export function pValue(rng: Random, significant: boolean): string {
  if (!significant) return `p = 0.${rng.int(12, 89)}`
  return rng.pick(['p < 0.001', `p = 0.00${rng.int(1, 9)}`, `p = 0.0${rng.int(1, 4)}`, 'p < 0.0001'])
}

/** A ratio and its 95% CI for an effect: below 1 for a lower risk, above 1 for a higher one. */
export function ratio(
  rng: Random,
  direction: 'lower' | 'higher' | 'none',
  label = 'HR',
): { value: string; text: string } {
  const r =
    direction === 'lower'
      ? rng.float(0.58, 0.92)
      : direction === 'higher'
        ? rng.float(1.09, 1.9)
        : rng.float(0.94, 1.07)
  const lo = r * rng.float(0.78, 0.93)
  const hi =
    direction === 'none'
      ? Math.max(1.02, r * rng.float(1.08, 1.2))
      : direction === 'lower'
        ? Math.min(0.98, r * rng.float(1.06, 1.2))
        : r * rng.float(1.08, 1.25)
  const loFixed = direction === 'higher' ? Math.max(1.01, lo) : lo
  return {
    value: `${label} ${r.toFixed(2)}`,
    text: `${label} ${r.toFixed(2)}, 95% CI ${loFixed.toFixed(2)}–${hi.toFixed(2)}`,
  }
}

/** How a sentence names a measure: levels are plural ("IL-6 levels"), the rest as in the lexicon. */
export function measure(o: Outcome): string {
  const name = o.entry.name
  return name.endsWith(' level') ? `${name}s` : name
}

/** "a randomized trial in 240 older adults", "a study in C57BL/6J mice": who the study was in. */
export function population(d: Design): string {
  const o = d.organism
  if (!o) return 'the published literature'
  if (d.studyType === 'cells') return `${d.system}`
  if (o.kind === 'human')
    return d.studyType === 'review'
      ? 'people'
      : `${thousands(d.n)} ${d.studyType === 'human_trial' ? 'older adults' : 'participants'}`
  const sex = d.sex === 'both' ? '' : `${d.sex} `
  return `${sex}${d.strain && o.plural === 'mice' ? `${d.strain} ` : ''}${o.plural}`
}

/** The organism as a caveat names it: "mice (Mus musculus)". */
export function organismLabel(d: Design): string {
  if (!d.organism) return 'no single organism'
  if (d.studyType === 'cells') return `cultured ${d.system} (${d.organism.latin})`
  if (d.organism.kind === 'human') return 'humans'
  return `${d.organism.plural} (${d.organism.latin})`
}

export type Relation =
  | 'increases'
  | 'decreases'
  | 'associated_with'
  | 'extends_lifespan'
  | 'protects_against'
  | 'reduces_risk_of'
  | 'improves'
  | 'impairs'
export type Direction = 'increase' | 'decrease' | 'no_change' | 'mixed'

/** The relation and direction an effect on an outcome implies, so sentence and claim agree. */
export function relationFor(o: Outcome, effect: Effect, human: boolean): [Relation, Direction] {
  if (effect === 'none') return ['associated_with', 'no_change']
  const good = effect === 'benefit'
  if (o.entry.key === 'lifespan') return good ? ['extends_lifespan', 'increase'] : ['decreases', 'decrease']
  if (o.polarity === 1) return good ? ['improves', 'increase'] : ['impairs', 'decrease']
  if (!good) return ['increases', 'increase']
  if (o.entry.type === 'disease' || o.entry.key === 'mortality')
    return [human ? 'reduces_risk_of' : 'protects_against', 'decrease']
  return ['decreases', 'decrease']
}
