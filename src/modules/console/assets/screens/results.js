// How the answers of POST /api/scrape and POST /api/analyze are shown (the sources and jobs screens).
import { h, table } from '../dom.js'

export const countList = (counts) => h('dl', { class: 'counts' },
  Object.entries(counts).map(([name, value]) => [h('dt', {}, name.replaceAll('_', ' ')), h('dd', {}, String(value))]))

/** A run's status; a partial one says how many things failed. */
export const statusBadge = (run) => h('span', { class: `badge ${run.status}` },
  run.status === 'partial' ? `partial: ${run.failure_count} failed` : run.status)

export function scrapeResult(run) {
  return h('section', { class: 'card result', 'aria-labelledby': `run-${run.run_id}` },
    h('h2', { id: `run-${run.run_id}` }, `Scrape run ${run.run_id}: ${run.duration_ms} ms`),
    h('p', {}, statusBadge(run)), countList(run.counts),
    table('Outcome per source', ['Source', 'Items', 'Added', 'Linked', 'Skipped', 'Links refused', 'Error'],
      run.sources.map((s) => [s.name, s.not_modified ? 'not modified' : String(s.items), String(s.added), String(s.linked), String(s.skipped), String(s.links_refused), s.error ?? '—'])))
}

export function analyzeResult(run) {
  return h('section', { class: 'card result', 'aria-labelledby': `run-${run.run_id}` },
    h('h2', { id: `run-${run.run_id}` }, `Analysis run ${run.run_id} by ${run.analyzer}: ${run.duration_ms} ms`),
    h('p', {}, statusBadge(run)), countList(run.counts),
    run.failures.length ? h('div', {}, h('h3', {}, 'Failures'), h('ul', {}, run.failures.map((f) => h('li', {}, f)))) : h('p', {}, 'Nothing failed.'))
}

export function refreshResult(run) {
  return h('section', { class: 'card result', 'aria-labelledby': 'refresh-result' },
    h('h2', { id: 'refresh-result' }, `Contradictions and gaps recomputed in ${run.duration_ms} ms`),
    countList(run.counts))
}
