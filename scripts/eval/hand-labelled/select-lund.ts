/**
 * Chooses which Lund-Autophagy-1 records were read and labelled by hand for `lund-autophagy.json`.
 *
 * Candidates: every record with an abstract whose title or abstract matches one of SCAN_TERMS (a broad net for
 * anything that touches ageing; the labels themselves come from reading each record, not from these terms).
 * Spread: RANDOM_COUNT records drawn with a seeded shuffle from the records with an abstract that did not match.
 *
 *   bun scripts/eval/hand-labelled/select-lund.ts          prints the counts and the two id lists
 *   bun scripts/eval/hand-labelled/select-lund.ts --check  also checks lund-autophagy.json labels exactly this selection
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const SOURCE = 'literature/easyner-lund-autophagy/Lund-Autophagy-1_articles.json'
export const SEED = 20240614
export const RANDOM_COUNT = 80

/** Case-insensitive; word boundaries keep "imaging" out of "aging" and "bold" out of "old". */
export const SCAN_TERMS: RegExp[] = [
  /\b(anti-?)?(aging|ageing|aged|ages)\b/i,
  /\bage[- ](related|associated|dependent|dependently|induced|matched)\b|\bage- and\b/i,
  /\b(old|older|oldest|elderly)\b/i,
  /\blife[- ]?span|\blongevity|\bhealth[- ]?span/i,
  /\bsenescen|\bsenolytic|\bsenomorphic|\bgeroprotect|\bgeroscien|\brejuvenat/i,
  /\b(calori[ce]|dietary|food) restriction|\bfasting|\bstarvation-mimetic|\bcaloric restriction mimetic/i,
  /\bNAD\+|\bNAD\b|\bnicotinamide|\bsirtuin|\bSIRT[1-7]\b/i,
  /\btelomer/i,
  /\bneurodegenerat|\bAlzheimer|\bParkinson|\bHuntington|\bdementia|\bamyotrophic|\bcognitive (decline|impairment)/i,
  /\bsarcopeni|\bfrailty|\bprogeri|\bprogeroid|\bklotho/i,
  /\bosteoporo|\bmenopaus|\bpremature ovarian|\bovarian (ageing|aging|reserve)|\blate[- ]life\b/i,
  /\bepigenetic (clock|age|ageing|aging|drift)|\bbiological age|\bmethylation age/i,
]

type RawArticle = { title?: string; abstract?: string }

const fixturesDir = fileURLToPath(new URL('../../../../shared/fixtures/', import.meta.url))

/** mulberry32: a small seeded generator, so the draw is the same on every machine and runtime. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function selectLund(articles: Record<string, RawArticle>) {
  const withAbstract = Object.keys(articles)
    .filter((pmid) => (articles[pmid].abstract ?? '').trim() !== '')
    .sort((a, b) => Number(a) - Number(b))
  const matches = (pmid: string) => {
    const text = `${articles[pmid].title ?? ''} ${articles[pmid].abstract ?? ''}`
    return SCAN_TERMS.some((term) => term.test(text))
  }
  const candidates = withAbstract.filter(matches)
  const rest = withAbstract.filter((pmid) => !matches(pmid))
  // Fisher-Yates over the rest in PMID order, then the first RANDOM_COUNT.
  const random = mulberry32(SEED)
  const shuffled = [...rest]
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]]
  }
  const sample = shuffled.slice(0, RANDOM_COUNT).sort((a, b) => Number(a) - Number(b))
  return { total: Object.keys(articles).length, withAbstract: withAbstract.length, candidates, rest, sample }
}

if (import.meta.main) {
  const path = fixturesDir + SOURCE
  if (!existsSync(path)) {
    console.error(`fixture not found: ${path}`)
    process.exit(1)
  }
  const articles = JSON.parse(readFileSync(path, 'utf8')) as Record<string, RawArticle>
  const { total, withAbstract, candidates, rest, sample } = selectLund(articles)
  console.log(`records ${total}, with abstract ${withAbstract}, candidates ${candidates.length}, rest ${rest.length}`)
  console.log(`random sample (seed ${SEED}, ${RANDOM_COUNT} of the rest)`)
  console.log(`candidates: ${candidates.join(' ')}`)
  console.log(`sample: ${sample.join(' ')}`)

  if (process.argv.includes('--check')) {
    const labelled = fileURLToPath(new URL('./lund-autophagy.json', import.meta.url))
    const papers = (JSON.parse(readFileSync(labelled, 'utf8')) as { papers: { id: string }[] }).papers
    const have = new Set(papers.map((p) => p.id))
    const want = new Set([...candidates, ...sample].map((pmid) => `MED-${pmid}`))
    const missing = [...want].filter((id) => !have.has(id))
    const extra = [...have].filter((id) => !want.has(id))
    const notInFile = papers.filter((p) => !articles[p.id.replace(/^MED-/, '')]).map((p) => p.id)
    const duplicated = papers.length - have.size
    console.log(
      `labelled ${papers.length}; missing ${missing.length}, extra ${extra.length}, not in file ${notInFile.length}, duplicated ${duplicated}`,
    )
    if (missing.length) console.log(`missing: ${missing.join(' ')}`)
    if (extra.length) console.log(`extra: ${extra.join(' ')}`)
    if (missing.length || extra.length || notInFile.length || duplicated) process.exit(1)
  }
}
