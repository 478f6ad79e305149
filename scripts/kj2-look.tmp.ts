import { handLabelled } from './eval/hand-labelled'
import { foldOf } from './eval/evaluate'
import { recordsOf } from './eval/records'
import { readPaper } from '../src/analysis/builtin/reading'
import { judgeRelevance } from '../src/analysis/builtin/relevance'
const tuning = handLabelled().filter((l) => l.half === 'tuning' && foldOf(l.id) !== 4)
for (const l of tuning) {
  const r = recordsOf(l.file).get(l.id)!
  const j = judgeRelevance(r, readPaper(r))
  if (l.relevance >= 1 || j.relevance >= 1) console.log(`${l.relevance} ${j.relevance.toFixed(1)} [${j.rule}] ${l.set} ${r.title.slice(0, 120)}\n     ${l.rationale.slice(0, 200)}`)
}
