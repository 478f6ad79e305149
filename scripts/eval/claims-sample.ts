/**
 * A seeded random sample of 200 claims the built-in analyzer extracts from real fixture records, for an
 * editor to read against their abstracts: is each claim well-formed (its subject and object
 * whole noun phrases, and a real claim the abstract makes) and correctly resolved (each side's entity
 * right, or rightly null)? The labels live in claims-200.json beside this script, one per claim, keyed
 * by paper id and claim number; the script never writes a label, it only draws the sample and counts.
 *
 * Records: literature/easyner-lund-autophagy (PubMed records) and every literature/synergy-v1 screening
 * set, all records with an abstract, in file order (not the Europe PMC files kept for independent checks).
 * Draw: every claim, in record order and claim order, shuffled by Fisher-Yates with mulberry32 seeded
 * SEED; the first SAMPLE taken.
 *
 *   bun scripts/eval/claims-sample.ts            the shares of the labelled sample (well-formed, resolved, both)
 *   bun scripts/eval/claims-sample.ts --draw     writes the drawn sample to claims-200.json, keeping the labels
 *                                                of claims drawn before (a claim whose text changed loses its label)
 *   bun scripts/eval/claims-sample.ts --show N   prints claims N..N+19 with their abstracts, for reading
 */
import { mulberry32 } from './hand-labelled/select-mixed'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { analyzePaper } from '../../src/analysis/builtin'
import { fixturesDir, haveFixtures, readFile } from './records'

const SEED = 20261129
const SAMPLE = 200
const out = fileURLToPath(new URL('./claims-200.json', import.meta.url))

type Side = { text: string; entity: string | null }
export type SampledClaim = {
  paper_id: string; file: string; claim: number
  subject: Side; relation: string; object: Side; evidence: string | null
  /** The editor's reading: null until read. */
  well_formed: boolean | null; resolved: boolean | null; note: string
}

function files(): string[] {
  const synergy = 'literature/synergy-v1/'
  return [
    'literature/easyner-lund-autophagy/Lund-Autophagy-1_articles.json',
    ...readdirSync(fixturesDir + synergy).filter((d) => existsSync(`${fixturesDir}${synergy}${d}/works_kept.json.gz`)).sort()
      .map((d) => `${synergy}${d}/works_kept.json.gz`),
  ]
}

const sideOf = (s: { text: string; entity: { type: string; key: string } | null }): Side =>
  ({ text: s.text, entity: s.entity ? `${s.entity.type}:${s.entity.key}` : null })

/** Every claim of every record, in order, and the abstracts they came from. */
function allClaims(): { claims: SampledClaim[]; abstracts: Map<string, { title: string; abstract: string }> } {
  const claims: SampledClaim[] = []
  const abstracts = new Map<string, { title: string; abstract: string }>()
  for (const file of files()) {
    for (const paper of readFile(file)) {
      if (!paper.abstract) continue
      abstracts.set(paper.id, { title: paper.title, abstract: paper.abstract })
      analyzePaper(paper).claims.forEach((c, i) => claims.push({
        paper_id: paper.id, file, claim: i, subject: sideOf(c.subject), relation: c.relation, object: sideOf(c.object),
        evidence: c.evidence, well_formed: null, resolved: null, note: '',
      }))
    }
  }
  return { claims, abstracts }
}

function draw(claims: SampledClaim[]): SampledClaim[] {
  const order = [...claims]
  const random = mulberry32(SEED)
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[order[i], order[j]] = [order[j], order[i]]
  }
  return order.slice(0, SAMPLE)
}

const same = (a: SampledClaim, b: SampledClaim) => a.paper_id === b.paper_id && a.claim === b.claim && a.relation === b.relation &&
  a.subject.text === b.subject.text && a.subject.entity === b.subject.entity && a.object.text === b.object.text && a.object.entity === b.object.entity

type LabelFile = { method: string; claims: SampledClaim[] }
const readLabels = (): LabelFile | null => (existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) as LabelFile : null)

if (!haveFixtures) {
  console.log('claims-sample: ../shared/fixtures is missing; nothing to draw')
  process.exit(0)
}
const args = process.argv.slice(2)
if (args[0] === '--draw' || args[0] === '--show') {
  const { claims, abstracts } = allClaims()
  const sample = draw(claims)
  const before = readLabels()
  const labelled = sample.map((c) => {
    const old = before?.claims.find((b) => same(b, c))
    return old ? { ...c, well_formed: old.well_formed, resolved: old.resolved, note: old.note } : c
  })
  if (args[0] === '--draw') {
    const method = before?.method ?? ''
    writeFileSync(out, JSON.stringify({ method, claims: labelled }, null, 1) + '\n')
    console.log(`${claims.length} claims from ${abstracts.size} records; ${labelled.length} drawn, ${labelled.filter((c) => c.well_formed !== null).length} already labelled`)
  } else {
    const from = Number(args[1] ?? 0)
    labelled.slice(from, from + 20).forEach((c, i) => {
      const a = abstracts.get(c.paper_id)!
      console.log(`\n#${from + i} ${c.paper_id}  [${c.subject.text}] (${c.subject.entity}) ${c.relation} [${c.object.text}] (${c.object.entity})`)
      console.log(`  EVIDENCE: ${c.evidence}`)
      if (args.includes('--abstract')) console.log(`  TITLE: ${a.title}\n  ABSTRACT: ${a.abstract}`)
    })
  }
} else {
  const labels = readLabels()
  const read = labels?.claims.filter((c) => c.well_formed !== null && c.resolved !== null) ?? []
  if (read.length === 0) {
    console.log('claims-sample: no labelled claims yet (run with --draw, then read and label claims-200.json)')
    process.exit(0)
  }
  const share = (n: number) => `${n}/${read.length} (${((100 * n) / read.length).toFixed(1)}%)`
  console.log(`labelled claims: ${read.length} of ${labels!.claims.length}`)
  console.log(`well-formed:        ${share(read.filter((c) => c.well_formed).length)}`)
  console.log(`correctly resolved: ${share(read.filter((c) => c.resolved).length)}`)
  console.log(`both:               ${share(read.filter((c) => c.well_formed && c.resolved).length)}`)
}
