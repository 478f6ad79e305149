/**
 * Lists which records the fourth round of hand-judged records reads (issue 34), so the selection can be repeated.
 * Two new sets, each halved by hand-labelled.ts's split rule on its own (adding them moves no record of the
 * earlier sets between halves):
 *  - synergy-2: a seeded random sample of the literature/synergy-v1 records with an abstract that no earlier
 *    set holds (synergy, calibration), with quotas per screening set weighted to the designs the analyzer
 *    confuses: trials (Chou, Meijboom, Oud, Donners), reviews (Menon), cohorts (van der Valk);
 *  - lund-2: a seeded random sample of the Lund autophagy records with an abstract that no earlier set holds
 *    (lund-autophagy, calibration): basic biology of a hallmark process, rich in relevance 1 and in cells and
 *    animal designs.
 * Nothing here looks at a label or at the analyzer; every label comes from reading title and abstract.
 *
 *   bun scripts/eval/hand-labelled/select-round4.ts            prints the selection as JSON
 *   bun scripts/eval/hand-labelled/select-round4.ts --check    checks synergy-2.json and lund-2.json against it
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { LUND_FILE, mulberry32, read, type Rec } from './select-mixed'

const here = fileURLToPath(new URL('./', import.meta.url))

export const SEED = 20261130
export const SYNERGY_QUOTAS: Record<string, number> = {
  Chou_2004: 130,
  Meijboom_2021: 100,
  Menon_2022: 120,
  Oud_2018: 100,
  van_der_Valk_2021: 110,
  Jeyaraman_2020: 70,
  Donners_2021: 30,
  Sep_2021: 30,
}
export const LUND_COUNT = 240

const labelledIds = (...names: string[]) =>
  new Set(
    names
      .flatMap((n) => (JSON.parse(readFileSync(`${here}${n}.json`, 'utf8')) as { papers: { id: string }[] }).papers)
      .map((p) => p.id),
  )

/**
 * A record the evaluation can read has a title as well as an abstract (test/analysis/eval-harness.test.ts). Records
 * without one are dropped after the draw, so the draw itself is the one the editors read.
 */
const hasTitle = (r: { title: string }) => r.title.trim().length > 0

function drawn(pool: Rec[], count: number, seed: number): Rec[] {
  const recs = [...pool].sort((a, b) => a.id.localeCompare(b.id))
  const random = mulberry32(seed)
  for (let j = recs.length - 1; j > 0; j--) {
    const k = Math.floor(random() * (j + 1))
    ;[recs[j], recs[k]] = [recs[k], recs[j]]
  }
  return recs.slice(0, count)
}

export function selection(): Record<'synergy-2' | 'lund-2', { id: string; file: string }[]> {
  const earlierSynergy = labelledIds('synergy', 'calibration')
  const synergy = Object.keys(SYNERGY_QUOTAS)
    .sort()
    .flatMap((set, i) => {
      const file = `literature/synergy-v1/${set}/works_kept.json.gz`
      const pool = read(file).filter((r) => r.abstract.length > 0 && !earlierSynergy.has(r.id))
      return drawn(pool, SYNERGY_QUOTAS[set], SEED + i).filter(hasTitle)
    })
  const earlierLund = labelledIds('lund-autophagy', 'agreement-lund', 'calibration')
  const lund = drawn(
    read(LUND_FILE).filter((r) => r.abstract.length > 0 && !earlierLund.has(r.id)),
    LUND_COUNT,
    SEED + 100,
  ).filter(hasTitle)
  const ids = ({ id, file }: Rec) => ({ id, file })
  return { 'synergy-2': synergy.map(ids), 'lund-2': lund.map(ids) }
}

/** Checks that each named file labels exactly its selection (ids, files, no repeats); exits 1 otherwise. */
export function checkLabelled(selected: Record<string, { id: string; file: string }[]>) {
  const problems: string[] = []
  for (const [name, want] of Object.entries(selected)) {
    const path = `${here}${name}.json`
    if (!existsSync(path)) {
      problems.push(`${name}.json: missing`)
      continue
    }
    const papers = (JSON.parse(readFileSync(path, 'utf8')) as { papers: { id: string; file: string }[] }).papers
    const wanted = new Map(want.map((r) => [r.id, r.file]))
    const got = new Set(papers.map((p) => p.id))
    for (const p of papers)
      if (wanted.get(p.id) !== p.file) problems.push(`${name}: ${p.id} not selected for ${p.file}`)
    for (const id of wanted.keys()) if (!got.has(id)) problems.push(`${name}: ${id} selected but not labelled`)
    if (got.size !== papers.length) problems.push(`${name}.json repeats an id`)
    console.log(`${name}: ${papers.length} labelled of ${want.length} selected`)
  }
  if (problems.length) {
    console.log(problems.slice(0, 50).join('\n'))
    process.exit(1)
  }
  console.log('selection reproduced; every id found in its file')
}

if (import.meta.main) {
  if (process.argv.includes('--check')) checkLabelled(selection())
  else console.log(JSON.stringify(selection(), null, 1))
}
