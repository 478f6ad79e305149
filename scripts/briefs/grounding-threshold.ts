/**
 * How the grounding check of model-written brief statements (src/pipeline/briefs/grounding.ts) separates
 * statements an editor would let stand from those it would not, on the hand-labelled set of
 * test/briefs/grounding-set.ts (statements about papers of the demo corpus, seed 1). Prints each
 * statement's share of content words found in its paper, then, per threshold, how many faithful
 * statements would be dropped and unfaithful ones kept.
 *
 *   bun scripts/briefs/grounding-threshold.ts
 */
import { grounding } from '../../src/pipeline/briefs/grounding'
import { itemTexts } from '../../src/pipeline/briefs/model-writer'
import { GROUNDING_SET } from '../../test/briefs/grounding-set'
import { demoPapers, materialOf } from '../../test/briefs/prose-material'

const papers = demoPapers(400)
const texts = itemTexts(materialOf(papers, []))
const rows = GROUNDING_SET.map((s) => {
  const paper = papers.find((p) => p.title.startsWith(s.paper))
  if (!paper) throw new Error(`no demo paper titled "${s.paper}…"`)
  return { ...s, ...grounding(s.text, texts.get(paper.ref)!) }
})
for (const r of [...rows].sort((a, b) => a.share - b.share)) {
  console.log(
    `${r.share.toFixed(2)}  ${r.faithful ? 'faithful  ' : 'unfaithful'}  ${r.text}  [missing: ${r.missing.join(' ')}]`,
  )
}
console.log('\nthreshold  faithful dropped  unfaithful kept')
for (let t = 0.3; t <= 0.901; t += 0.05) {
  const droppedFaithful = rows.filter((r) => r.faithful && r.share < t).length
  const keptUnfaithful = rows.filter((r) => !r.faithful && r.share >= t).length
  console.log(
    `${t.toFixed(2)}       ${droppedFaithful}/${rows.filter((r) => r.faithful).length}              ${keptUnfaithful}/${rows.filter((r) => !r.faithful).length}`,
  )
}
