/**
 * The hand-read claim samples against the extractor as it is now: for every labelled claim, what the extractor makes
 * of the same sentence today (the same claim, another one, or none), and its old label. For the editor who tunes the
 * extractor on the samples already seen (claims-200.json, claims-200-b.json, and since round 4 claims-200-c.json); never
 * run it on a sample before its labels are final (claims-200-d.json is the set read once after round 4).
 *
 *   bun scripts/eval/claims-compare.ts [claims-200-b.json ...] [--lost] [--changed] [--kept-bad]
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { analyzePaper } from '../../src/pipeline/analysis/builtin'
import { readFile } from './records'
import type { SampledClaim } from './claims-sample'

const names = process.argv.slice(2).filter((a) => !a.startsWith('--'))
const show = (flag: string) =>
  process.argv.includes(flag) || !process.argv.some((a) => a === '--lost' || a === '--changed' || a === '--kept-bad')
const side = (s: { text: string; entity: string | null }) => `[${s.text}](${s.entity ?? '-'})`
const line = (c: { subject: SampledClaim['subject']; relation: string; object: SampledClaim['object'] }) =>
  `${side(c.subject)} ${c.relation} ${side(c.object)}`
let kept = 0,
  lost = 0,
  changed = 0,
  lostGood = 0,
  changedGood = 0
for (const name of names.length ? names : ['claims-200.json', 'claims-200-b.json']) {
  const labels = JSON.parse(readFileSync(fileURLToPath(new URL(`./${name}`, import.meta.url)), 'utf8')) as {
    claims: SampledClaim[]
  }
  const byFile = new Map<string, SampledClaim[]>()
  for (const c of labels.claims) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c])
  for (const [file, list] of byFile) {
    const papers = new Map(readFile(file).map((p) => [p.id, p]))
    for (const c of list) {
      const now = analyzePaper(papers.get(c.paper_id)!)
        .claims.filter((n) => n.evidence === c.evidence)
        .map((n) => ({
          subject: {
            text: n.subject.text,
            entity: n.subject.entity ? `${n.subject.entity.type}:${n.subject.entity.key}` : null,
          },
          relation: n.relation,
          object: {
            text: n.object.text,
            entity: n.object.entity ? `${n.object.entity.type}:${n.object.entity.key}` : null,
          },
        }))
      const was = c.after === null ? null : c.after ? { ...c, ...c.after } : c
      const label = was ? `${was.well_formed ? 'WF' : 'wf-'} ${was.resolved ? 'R' : 'r-'}` : 'dropped before'
      if (was && now.some((n) => line(n) === line(was))) {
        kept++
        if (process.argv.includes('--kept-bad') && !(was.well_formed && was.resolved)) {
          console.log(`\n${name} ${c.paper_id} (${label}) ${line(was)}\n  note: ${was.note}\n  ${c.evidence}`)
        }
        continue
      }
      const good = !!was && !!was.well_formed && !!was.resolved
      if (now.length === 0) {
        lost++
        if (good) lostGood++
      } else {
        changed++
        if (good) changedGood++
      }
      if ((now.length === 0 && show('--lost')) || (now.length > 0 && show('--changed'))) {
        console.log(
          `\n${name} ${c.paper_id} (${label}) ${was ? line(was) : ''}${was?.note ? `\n  note: ${was.note}` : ''}`,
        )
        for (const n of now) console.log(`  NOW ${line(n)}`)
        if (now.length === 0) console.log('  NOW (no claim)')
        console.log(`  ${c.evidence}`)
      }
    }
  }
}
console.log(
  `\nunchanged ${kept}, now no claim ${lost} (${lostGood} had been read well-formed and resolved), changed ${changed} (${changedGood} had been both)`,
)
