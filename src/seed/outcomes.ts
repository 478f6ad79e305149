/**
 * What the synthetic studies measure: lexicon phenotypes, biomarkers and diseases, each with the
 * kinds of study that can measure it and whether more of it is good or bad. The polarity keeps
 * sentences, claims and stories pointing the same way ("reduced frailty" is a benefit).
 */
import { curatedLexicon as lexicon, type LexiconEntry } from '../lexicon/lexicon'

/** h: humans, a: vertebrate animals, i: invertebrates, c: cultured cells. */
export type Scope = 'h' | 'a' | 'i' | 'c'

export type Outcome = {
  entry: LexiconEntry
  scopes: Scope[]
  /** 1: more is better (lifespan, grip strength); -1: more is worse (frailty, IL-6). */
  polarity: 1 | -1
  /** lifespan-like outcomes get their own sentences ("extended median lifespan"). */
  lifespan: boolean
}

const byTypeKey = new Map(lexicon.map((entry) => [`${entry.type}:${entry.key}`, entry]))

/** A lexicon entry by 'type:key'; a typo here is a programming error, so it throws at load. */
export function entry(typeKey: string): LexiconEntry {
  const found = byTypeKey.get(typeKey)
  if (!found) throw new Error(`seed: no lexicon entry ${typeKey}`)
  return found
}

// type:key, scopes, polarity
const TABLE: [string, string, 1 | -1][] = [
  ['phenotype:lifespan', 'ai', 1],
  ['phenotype:healthspan', 'aih', 1],
  ['phenotype:mortality', 'h', -1],
  ['phenotype:frailty', 'ha', -1],
  ['phenotype:sarcopenia', 'ha', -1],
  ['phenotype:cognitive-decline', 'ha', -1],
  ['phenotype:memory-impairment', 'ah', -1],
  ['phenotype:grip-strength', 'ha', 1],
  ['phenotype:gait-speed', 'h', 1],
  ['phenotype:HP:0000855', 'ha', -1],
  ['phenotype:HP:0001952', 'a', -1],
  ['phenotype:bone-loss', 'ha', -1],
  ['phenotype:hair-greying', 'a', -1],
  ['phenotype:HP:0001596', 'a', -1],
  ['phenotype:HP:0002808', 'a', -1],
  ['phenotype:HP:0001324', 'ha', -1],
  ['phenotype:muscle-atrophy', 'a', -1],
  ['phenotype:immunosenescence', 'ha', -1],
  ['phenotype:thymic-involution', 'a', -1],
  ['phenotype:arterial-stiffness', 'ha', -1],
  ['phenotype:endothelial-dysfunction', 'hac', -1],
  ['phenotype:cardiac-hypertrophy', 'a', -1],
  ['phenotype:diastolic-dysfunction', 'ah', -1],
  ['phenotype:skin-aging', 'ha', -1],
  ['phenotype:reproductive-aging', 'ai', -1],
  ['phenotype:physical-function-decline', 'h', -1],
  ['phenotype:mobility-disability', 'h', -1],
  ['phenotype:neurodegeneration', 'ai', -1],
  ['phenotype:brain-atrophy', 'h', -1],
  ['phenotype:synaptic-loss', 'a', -1],
  ['phenotype:accelerated-aging', 'ah', -1],
  ['phenotype:visceral-adiposity', 'ha', -1],
  ['phenotype:circadian-disruption', 'ai', -1],
  ['phenotype:visual-impairment', 'a', -1],
  ['phenotype:HP:0012378', 'h', -1],
  ['biomarker:horvath-clock', 'h', -1],
  ['biomarker:hannum-clock', 'h', -1],
  ['biomarker:phenoage', 'h', -1],
  ['biomarker:grimage', 'h', -1],
  ['biomarker:dunedinpace', 'h', -1],
  ['biomarker:skin-and-blood-clock', 'h', -1],
  ['biomarker:epigenetic-age', 'hac', -1],
  ['biomarker:epigenetic-age-acceleration', 'h', -1],
  ['biomarker:phenotypic-age', 'h', -1],
  ['biomarker:biological-age', 'h', -1],
  ['biomarker:transcriptomic-clock', 'ha', -1],
  ['biomarker:proteomic-clock', 'h', -1],
  ['biomarker:c-reactive-protein-level', 'h', -1],
  ['biomarker:il-6-level', 'hac', -1],
  ['biomarker:tnf-alpha-level', 'ha', -1],
  ['biomarker:telomere-length', 'hc', 1],
  ['biomarker:p16ink4a-expression', 'hac', -1],
  ['biomarker:sa-beta-gal', 'ac', -1],
  ['biomarker:gammah2ax-foci', 'ac', -1],
  ['biomarker:lamin-b1-loss', 'c', -1],
  ['biomarker:senescent-cell-burden', 'ah', -1],
  ['biomarker:gdf15-level', 'h', -1],
  ['biomarker:neurofilament-light-chain-level', 'h', -1],
  ['biomarker:p-tau217', 'h', -1],
  ['biomarker:amyloid-beta-42-40-ratio', 'h', 1],
  ['biomarker:plasma-gfap', 'h', -1],
  ['biomarker:brain-age-gap', 'h', -1],
  ['biomarker:hba1c', 'h', -1],
  ['biomarker:fasting-glucose', 'ha', -1],
  ['biomarker:fasting-insulin', 'ha', -1],
  ['biomarker:homa-ir', 'h', -1],
  ['biomarker:igf-1-level', 'ha', -1],
  ['biomarker:frailty-index', 'ha', -1],
  ['biomarker:fried-frailty-phenotype', 'h', -1],
  ['biomarker:vo2max', 'h', 1],
  ['biomarker:nad-plus-level', 'haci', 1],
  ['biomarker:mtdna-copy-number', 'hc', 1],
  ['biomarker:8-oxo-dg', 'ach', -1],
  ['biomarker:soluble-klotho-level', 'h', 1],
  ['biomarker:cystatin-c', 'h', -1],
  ['biomarker:estimated-glomerular-filtration-rate', 'h', 1],
  ['biomarker:bone-mineral-density', 'h', 1],
  ['biomarker:appendicular-lean-mass', 'h', 1],
  ['biomarker:serum-albumin', 'h', 1],
  ['biomarker:clonal-hematopoiesis-of-indeterminate-potential', 'h', -1],
  ['biomarker:allostatic-load', 'h', -1],
  ['biomarker:short-physical-performance-battery', 'h', 1],
  ['biomarker:six-minute-walk-distance', 'h', 1],
  ['biomarker:timed-up-and-go-test', 'h', -1],
  ['disease:MESH:D000544', 'ha', -1],
  ['disease:MESH:D010300', 'ha', -1],
  ['disease:MESH:D003704', 'h', -1],
  ['disease:MESH:D020521', 'h', -1],
  ['disease:MESH:D050197', 'ha', -1],
  ['disease:MESH:D002318', 'h', -1],
  ['disease:MESH:D006333', 'ha', -1],
  ['disease:MESH:D006973', 'h', -1],
  ['disease:MESH:D010024', 'h', -1],
  ['disease:MESH:D055948', 'h', -1],
  ['disease:MESH:D010003', 'ha', -1],
  ['disease:MESH:D003924', 'h', -1],
  ['disease:MESH:D009765', 'ha', -1],
  ['disease:MESH:D065626', 'ha', -1],
  ['disease:MESH:D051436', 'ha', -1],
  ['disease:MESH:D054990', 'ha', -1],
  ['disease:MESH:D029424', 'h', -1],
  ['disease:MESH:D008268', 'h', -1],
  ['disease:MESH:D002386', 'h', -1],
  ['disease:MESH:D034381', 'h', -1],
  ['disease:MESH:D009369', 'ha', -1],
  ['disease:hip-fracture', 'h', -1],
  ['disease:MESH:D003865', 'h', -1],
  ['disease:periodontitis', 'ha', -1],
  ['disease:MESH:D001281', 'h', -1],
  ['disease:MESH:D001172', 'h', -1],
  ['disease:hutchinson-gilford-progeria-syndrome', 'ac', -1],
]

export const outcomes = new Map<string, Outcome>(
  TABLE.map(([typeKey, scopes, polarity]) => {
    const found = entry(typeKey)
    const lifespan = found.type === 'phenotype' && (found.key === 'lifespan' || found.key === 'healthspan')
    return [typeKey, { entry: found, scopes: [...scopes] as Scope[], polarity, lifespan }]
  }),
)

export function outcome(typeKey: string): Outcome {
  const found = outcomes.get(typeKey)
  if (!found) throw new Error(`seed: ${typeKey} is not in the outcome table`)
  return found
}

/** Every outcome measurable in `scope`, for topics whose own list has nothing that fits. */
export function outcomesIn(scope: Scope): Outcome[] {
  return [...outcomes.values()].filter((o) => o.scopes.includes(scope))
}
