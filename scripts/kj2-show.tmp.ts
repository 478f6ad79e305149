import { handLabelled } from './eval/hand-labelled'
import { recordsOf } from './eval/records'
const ids = process.argv.slice(2)
for (const l of handLabelled().filter((l) => ids.includes(l.id) && l.half === 'tuning')) {
  const r = recordsOf(l.file).get(l.id)!
  console.log(`== ${l.id} ${l.study_type} rel ${l.relevance} | ${r.title}\n types: ${r.publicationTypes.join('; ')} | mesh ${r.meshHeadings.length}\n ${r.abstract}\n`)
}
