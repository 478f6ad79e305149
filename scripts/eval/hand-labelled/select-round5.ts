/**
 * Lists which records the fifth round of hand-judged records reads (issue 34): every record with an abstract left
 * in the development fixtures after the earlier rounds, so the learned judge trains on all the real records we
 * may tune on. Three new sets, each halved by hand-labelled.ts's split rule on its own:
 *  - synergy-3: the rest of literature/synergy-v1 (trials, cohorts, reviews, animal studies, hard negatives);
 *  - lund-3: the rest of the Lund autophagy corpus;
 *  - mixed-2: the rest of the files the "mixed" set drew from (MEDLINE 2016, europepmc-agpl-more, PubMedQA,
 *    SYNERGY's Nelson_2002).
 * Never the files kept for independent checks (europepmc/, europepmc-agpl/, europepmc-mixed-core-150.json).
 * Nothing here looks at a label or at the analyzer; every label comes from reading title and abstract.
 *
 *   bun scripts/eval/hand-labelled/select-round5.ts            prints the selection as JSON
 *   bun scripts/eval/hand-labelled/select-round5.ts --check    checks synergy-3.json, lund-3.json, mixed-2.json
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { EUROPEPMC_FILES, LUND_FILE, MEDLINE_FILES, PUBMEDQA_FILE, SYNERGY_FILE, read, type Rec } from './select-mixed'
import { checkLabelled, selection as round4 } from './select-round4'

const here = fileURLToPath(new URL('./', import.meta.url))

const EARLIER = ['synergy', 'calibration', 'lund-autophagy', 'agreement-lund', 'mixed']
export const SETS: Record<'synergy-3' | 'lund-3' | 'mixed-2', string[]> = {
  'synergy-3': [
    'Chou_2004',
    'Donners_2021',
    'Jeyaraman_2020',
    'Meijboom_2021',
    'Menon_2022',
    'Oud_2018',
    'Sep_2021',
    'van_der_Valk_2021',
  ].map((set) => `literature/synergy-v1/${set}/works_kept.json.gz`),
  'lund-3': [LUND_FILE],
  'mixed-2': [...MEDLINE_FILES, ...EUROPEPMC_FILES, PUBMEDQA_FILE, SYNERGY_FILE],
}

export function selection(): Record<keyof typeof SETS, { id: string; file: string }[]> {
  const earlier = new Set(
    EARLIER.flatMap(
      (n) => (JSON.parse(readFileSync(`${here}${n}.json`, 'utf8')) as { papers: { id: string }[] }).papers,
    ).map((p) => p.id),
  )
  for (const recs of Object.values(round4())) for (const r of recs) earlier.add(r.id)
  const seen = new Set<string>() // a record in two files is read once, in the first
  const rest = (files: string[]) =>
    files.flatMap((file) =>
      read(file)
        .filter(
          (r: Rec) =>
            r.title.trim().length > 0 &&
            r.abstract.length > 0 &&
            !earlier.has(r.id) &&
            !seen.has(r.id) &&
            seen.add(r.id),
        )
        .map(({ id }) => ({ id, file })),
    )
  return { 'synergy-3': rest(SETS['synergy-3']), 'lund-3': rest(SETS['lund-3']), 'mixed-2': rest(SETS['mixed-2']) }
}

if (import.meta.main) {
  if (process.argv.includes('--check')) checkLabelled(selection())
  else console.log(JSON.stringify(selection(), null, 1))
}
