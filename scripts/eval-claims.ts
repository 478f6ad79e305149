/**
 * Claims checked against curated knowledge. Runs the built-in analyzer over every real record we hold
 * (../shared/fixtures/literature and PubMedQA's abstracts; not the Europe PMC files kept for
 * independent checks) and compares its lifespan claims with two outside sources:
 * - DrugAge: for a claim that a compound changed lifespan in an organism, does DrugAge hold that
 *   (compound, species) pair, and does its recorded direction (sign of the median average lifespan
 *   change over its results) agree with the claim's?
 * - GenAge (model organisms): the same for a gene and an organism, against GenAge's lifespan effect.
 *   GenAge records the effect of a genetic manipulation (knock-out, RNAi, overexpression) that the
 *   claim does not name, so direction agreement there is only indicative.
 * Also reports, for the papers DrugAge cites that are among the records, what DrugAge says and what
 * the analyzer extracted.
 *
 *   bun scripts/eval-claims.ts [--list]
 */
import { analyzePaper } from '../src/pipeline/analysis/builtin'
import type { FoundClaim } from '../src/pipeline/analysis/types'
import { entryByKey } from '../src/lexicon/lexicon'
import { normalizeAlias } from '../src/lexicon/normalize'
import { haveLiterature, readLiterature } from './lexicon/literature'
import { drugAgeResults, genAgeObservations } from './lexicon/sources'
import { drugAgeCompoundKeys, median, sign, species, type Direction } from './lexicon/drugage-keys'

if (!haveLiterature) {
  console.log('eval-claims: ../shared/fixtures/literature is missing; nothing to check')
  process.exit(0)
}
const list = process.argv.includes('--list')

const compoundKey = drugAgeCompoundKeys()
const drugAge = new Map<string, { changes: number[]; pmids: Set<string> }>() // `${key}|${species}`
const drugAgeCompoundsTested = new Set<string>()
for (const r of drugAgeResults()) {
  const key = compoundKey.get(r.compoundId)
  if (!key) continue
  drugAgeCompoundsTested.add(key)
  const pair = `${key}|${species(r.species)}`
  const d = drugAge.get(pair) ?? { changes: [], pmids: new Set() }
  const change = r.avgChange ?? r.maxChange
  if (change !== null) d.changes.push(change)
  d.pmids.add(r.pmid)
  drugAge.set(pair, d)
}

// GenAge model organisms, keyed by gene symbol (a mouse Igf1r is read as the human IGF1R entry) and species.
const genAge = new Map<string, Direction[]>()
const genAgePmids = new Map<string, { symbol: string; organism: string; effect: string }[]>()
for (const o of genAgeObservations()) {
  const pair = `${normalizeAlias(o.symbol)}|${species(o.organism)}`
  if (o.effect === 'increase' || o.effect === 'decrease') genAge.set(pair, [...(genAge.get(pair) ?? []), o.effect])
  if (o.pmid) genAgePmids.set(o.pmid, [...(genAgePmids.get(o.pmid) ?? []), o])
}

/** A claim about lifespan, and which way it says lifespan went. */
function lifespanDirection(c: FoundClaim): Direction | null {
  const object = `${c.object.text} ${c.object.entity?.name ?? ''}`
  if (c.relation === 'extends_lifespan') return 'increase'
  if (!/life-?span|longevity|survival/i.test(object)) return null
  if (c.direction === 'increase' || c.direction === 'decrease' || c.direction === 'no_change') return c.direction
  return null
}

const records = readLiterature(true)
const drugAgePmids = new Set([...drugAge.values()].flatMap((d) => [...d.pmids]))
const counts = {
  records: records.length,
  claims: 0,
  lifespan: 0,
  compound: 0,
  compoundInDrugAge: 0,
  compoundOrganism: 0,
  pairInDrugAge: 0,
  directionAgrees: 0,
  gene: 0,
  geneOrganism: 0,
  pairInGenAge: 0,
  geneDirectionAgrees: 0,
}
const rows: string[] = []
const cited: string[] = []
for (const r of records) {
  const { claims } = analyzePaper(r)
  counts.claims += claims.length
  if (r.pmid && (drugAgePmids.has(r.pmid) || genAgePmids.has(r.pmid))) {
    const said = [...drugAge]
      .filter(([, d]) => d.pmids.has(r.pmid!))
      .map(([pair, d]) => `DrugAge ${pair} ${sign(median(d.changes) ?? 0)}`)
    const genes = (genAgePmids.get(r.pmid) ?? []).map((o) => `GenAge ${o.symbol} ${o.organism} ${o.effect}`)
    cited.push(
      `${r.id} (${r.corpus}): ${[...said, ...genes].join('; ')}\n  extracted: ${claims.map((c) => `${c.subject.entity?.name ?? c.subject.text} ${c.relation} ${c.object.text} [${c.organism}]`).join(' | ') || 'no claims'}`,
    )
  }
  for (const c of claims) {
    const dir = lifespanDirection(c)
    if (!dir) continue
    counts.lifespan++
    const subject = c.subject.entity
    const org = c.organism ? species(c.organism) : null
    if (subject?.type === 'intervention') {
      counts.compound++
      if (drugAgeCompoundsTested.has(subject.key)) counts.compoundInDrugAge++
      if (!org) continue
      counts.compoundOrganism++
      const d = drugAge.get(`${subject.key}|${org}`)
      if (!d) continue
      counts.pairInDrugAge++
      const recorded = d.changes.length ? sign(median(d.changes)) : 'no_change'
      if (recorded === dir) counts.directionAgrees++
      rows.push(
        `DrugAge | ${r.id} | ${subject.name} | ${org} | claim ${dir} | DrugAge ${recorded} (${d.changes.length} results) | ${c.evidence.slice(0, 160)}`,
      )
    } else if (subject?.type === 'gene') {
      counts.gene++
      if (!org) continue
      counts.geneOrganism++
      const g = genAge.get(`${normalizeAlias(entryByKey('gene', subject.key)?.name ?? subject.name)}|${org}`)
      if (!g) continue
      counts.pairInGenAge++
      const recorded = g.filter((x) => x === 'increase').length >= g.length / 2 ? 'increase' : 'decrease'
      if (recorded === dir) counts.geneDirectionAgrees++
      rows.push(
        `GenAge | ${r.id} | ${subject.name} | ${org} | claim ${dir} | GenAge ${recorded} (${g.length} observations) | ${c.evidence.slice(0, 160)}`,
      )
    }
  }
}

const pct = (a: number, b: number) => (b ? `${a} / ${b} (${((100 * a) / b).toFixed(0)}%)` : `${a} / 0`)
console.log(
  `records analysed: ${counts.records} (literature and PubMedQA), claims extracted: ${counts.claims}, about lifespan: ${counts.lifespan}`,
)
console.log(
  `DrugAge: ${drugAge.size} (compound, species) pairs for ${drugAgeCompoundsTested.size} compounds the lexicon knows`,
)
console.log(
  `  lifespan claims with a compound subject: ${counts.compound}; compound tested in DrugAge: ${pct(counts.compoundInDrugAge, counts.compound)}`,
)
console.log(
  `  with an organism: ${counts.compoundOrganism}; (compound, organism) pair in DrugAge: ${pct(counts.pairInDrugAge, counts.compoundOrganism)}`,
)
console.log(
  `  direction agrees with DrugAge where it has the pair: ${pct(counts.directionAgrees, counts.pairInDrugAge)}`,
)
console.log(`GenAge (model organisms): ${genAge.size} (gene, species) pairs`)
console.log(
  `  lifespan claims with a gene subject: ${counts.gene}; with an organism: ${counts.geneOrganism}; pair in GenAge: ${pct(counts.pairInGenAge, counts.geneOrganism)}`,
)
console.log(
  `  direction agrees with GenAge's lifespan effect (manipulation not compared): ${pct(counts.geneDirectionAgrees, counts.pairInGenAge)}`,
)
console.log(`records DrugAge or GenAge cite among ours: ${cited.length}`)
for (const line of cited) console.log(`  ${line}`)
if (list) for (const row of rows) console.log(row)
