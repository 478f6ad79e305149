/**
 * Lists which records of literature/synergy-v1 the hand-judged "synergy" set contains, so the selection can be
 * repeated. SYNERGY's eight screening sets are rich in the designs the analyzer confused (trials, cohorts, reviews)
 * and in hard negatives (an older population as the sampling frame, frailty as a clinical predictor, mTOR inhibitors
 * or metformin in cancer, GLP-1 drugs in heart trials); they are poor in ageing biology, whose candidates were held
 * out of the fixture for independent checks before it reached us.
 *  1. candidates: every record with an abstract whose title or abstract touches ageing (select-mixed.ts's STRONG
 *     terms anywhere, its WEAK terms in the title) or names a geroscience drug class the service tracks (HARD);
 *  2. a seeded random sample of the other records with an abstract, with a fixed quota per screening set that
 *     weights the sets of trials, cohorts and reviews (QUOTAS).
 * The terms only choose what to read; every label in synergy.json comes from reading title and abstract.
 *
 *   bun scripts/eval/hand-labelled/select-synergy.ts           prints the selection as JSON
 *   bun scripts/eval/hand-labelled/select-synergy.ts --check   checks synergy.json against it
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { STRONG, WEAK_IN_TITLE, mulberry32, read, type Rec } from './select-mixed'

const here = fileURLToPath(new URL('./', import.meta.url))

export const SEED = 20261129
export const HARD =
  /metformin|\bGLP-?1\b|glucagon-like peptide|semaglutide|liraglutide|exenatide|dulaglutide|tirzepatide|everolimus|sirolimus|temsirolimus|resveratrol|spermidine|\bsenolytic|dasatinib|quercetin|\bfrail/i

/** Records drawn at random per screening set: trials (Chou, Meijboom, Oud, Donners), reviews (Menon), cohorts (van der Valk). */
export const QUOTAS: Record<string, number> = {
  Chou_2004: 110,
  Meijboom_2021: 100,
  Menon_2022: 110,
  Oud_2018: 100,
  van_der_Valk_2021: 90,
  Jeyaraman_2020: 60,
  Donners_2021: 30,
  Sep_2021: 30,
}
export const FILES = Object.keys(QUOTAS)
  .sort()
  .map((set) => `literature/synergy-v1/${set}/works_kept.json.gz`)

export const isCandidate = (r: Rec) =>
  STRONG.test(`${r.title} ${r.abstract}`) || WEAK_IN_TITLE.test(r.title) || HARD.test(`${r.title} ${r.abstract}`)

function drawn(pool: Rec[], quota: number, seed: number): Rec[] {
  const recs = [...pool].sort((a, b) => a.id.localeCompare(b.id))
  const random = mulberry32(seed)
  for (let j = recs.length - 1; j > 0; j--) {
    const k = Math.floor(random() * (j + 1))
    ;[recs[j], recs[k]] = [recs[k], recs[j]]
  }
  return recs.slice(0, quota)
}

export function selection() {
  const candidates: Rec[] = []
  const sample: Rec[] = []
  FILES.forEach((file, i) => {
    const withAbstract = read(file).filter((r) => r.abstract.length > 0)
    candidates.push(...withAbstract.filter(isCandidate))
    sample.push(
      ...drawn(
        withAbstract.filter((r) => !isCandidate(r)),
        QUOTAS[file.split('/')[2]],
        SEED + i,
      ),
    )
  })
  return {
    candidates: candidates.map(({ id, file }) => ({ id, file })),
    sample: sample.map(({ id, file }) => ({ id, file })),
  }
}

function check() {
  const sel = selection()
  const want = new Map([...sel.candidates, ...sel.sample].map((r) => [r.id, r.file]))
  const labelled = JSON.parse(readFileSync(here + 'synergy.json', 'utf8')) as { papers: { id: string; file: string }[] }
  const problems: string[] = []
  const got = new Set(labelled.papers.map((p) => p.id))
  for (const p of labelled.papers)
    if (want.get(p.id) !== p.file) problems.push(`${p.id}: not in the selection for ${p.file}`)
  for (const id of want.keys()) if (!got.has(id)) problems.push(`${id}: selected but not labelled`)
  if (got.size !== labelled.papers.length) problems.push('synergy.json repeats an id')
  console.log(`${labelled.papers.length} labelled (${sel.candidates.length} candidates + ${sel.sample.length} drawn)`)
  if (problems.length) {
    console.log(problems.slice(0, 50).join('\n'))
    process.exit(1)
  }
  console.log('selection reproduced; every id found in its file')
}

if (import.meta.main) {
  if (process.argv.includes('--check')) check()
  else console.log(JSON.stringify(selection(), null, 1))
}
