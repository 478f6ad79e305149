// Jobs: start a scrape (POST /api/scrape), an analysis (POST /api/analyze) or the bulk export (POST /api/export)
// and follow it (done of total, elapsed time, Cancel), or run the intelligence job (POST /api/intelligence/refresh);
// every run, filtered (GET /api/jobs), read again whenever a run followed here ends.
import { get, post, query } from '../api.js'
import { announce, append, begin, field, formatTime, h, nextPageLink, replace, table } from '../dom.js'
import { input, onSubmit, select, submit } from '../forms.js'
import { duration, followRun } from '../progress.js'
import { refreshResult, statusBadge } from './results.js'

const STATUSES = ['running', 'ok', 'partial', 'failed', 'cancelled']
const JOBS = ['scrape', 'analyze', 'export', 'harvest', 'intelligence', 'refresh', 'search-sync', 'purge-sessions', 'purge-rate-limits']

const progressText = (run) => (run.progress ? `${run.progress.done} of ${run.progress.total} ${run.progress.unit}` : '—')

export async function render(main, { params }) {
  begin(main, 'Jobs', 'Start the scraper, the analysis or the bulk export and follow it as it goes (you can cancel it: it stops after the ' +
    'source, paper or file in progress), run the intelligence job, and see every run.')
  const following = h('div', { id: 'job-progress', class: 'grid two' })
  const result = h('div', { id: 'job-result', tabindex: '-1' })
  const followed = new Set()
  const follow = (run) => {
    if (followed.has(run.id)) return
    followed.add(run.id)
    following.prepend(followRun(run, () => refreshRuns().catch((error) => announce(error.message, 'error'))))
  }
  const start = async (what, path, body) => {
    announce(`${what}: starting…`)
    const { data } = await post(path, { ...body, wait: false })
    follow(data)
    announce(`${what}: run ${data.id} started.`)
    await refreshRuns()
  }
  const scrape = onSubmit(h('form', { class: 'card', 'aria-labelledby': 'run-scrape' },
    h('h2', { id: 'run-scrape' }, 'Scrape'), h('p', {}, 'Fetches every enabled source once.'), submit('Scrape all sources')),
  () => start('Scrape', '/api/scrape', {}))
  const analyze = onSubmit(h('form', { class: 'card', 'aria-labelledby': 'run-analysis' },
    h('h2', { id: 'run-analysis' }, 'Analyse'),
    field('At most this many papers and articles', input({ name: 'limit', type: 'number', min: '1', max: '10000', value: '100', inputmode: 'numeric' })),
    h('div', { class: 'field check' }, h('input', { type: 'checkbox', name: 'stale', id: 'analyze-stale' }), h('label', { for: 'analyze-stale' }, 'Also redo papers judged with an older judge prompt')),
    submit('Run analysis')),
  (data) => start('Analysis', '/api/analyze', { limit: Number(data.get('limit')), stale: data.get('stale') === 'on' }))
  const exporter = onSubmit(h('form', { class: 'card', 'aria-labelledby': 'run-export' },
    h('h2', { id: 'run-export' }, 'Export'), h('p', {}, 'Writes the bulk export (/api/v1/exports) now, as the nightly job does.'), submit('Write the export')),
  () => start('Export', '/api/export', {}))
  const refresh = onSubmit(h('form', { class: 'card', 'aria-labelledby': 'run-refresh' },
    h('h2', { id: 'run-refresh' }, 'Contradictions and gaps'), h('p', {}, 'Recomputes them from the claims now (it answers when done).'), submit('Recompute')),
  async () => {
    announce('Recomputing contradictions and gaps…')
    const answer = await post('/api/intelligence/refresh', {})
    replace(result, refreshResult(answer.data))
    announce('Recomputing contradictions and gaps: done.')
    await refreshRuns()
  })

  const job = params.get('job') ?? ''
  const status = params.get('status') ?? ''
  const filter = h('form', { method: 'get', action: '/console/jobs', class: 'filters', 'aria-labelledby': 'runs-heading' },
    field('Job', select('job', [['', 'Any job'], ...JOBS.map((j) => [j, j])], job)),
    field('Status', select('status', [['', 'Any status'], ...STATUSES.map((s) => [s, s])], status)),
    submit('Filter'))
  const runs = h('div', { id: 'job-runs' })
  append(main, h('div', { class: 'grid' }, scrape, analyze, exporter, refresh),
    h('section', { 'aria-labelledby': 'progress-heading' }, h('h2', { id: 'progress-heading' }, 'Runs in progress'),
      h('p', { class: 'meta' }, 'Runs started here, and any scrape, analysis or export already going (scheduled, or started elsewhere), show here until they end.'),
      following), result,
    h('section', { 'aria-labelledby': 'runs-heading' }, h('h2', { id: 'runs-heading' }, 'Job runs'), filter, runs))

  async function refreshRuns() {
    const page = await get(`/api/jobs${query({ job, status, cursor: params.get('cursor'), limit: 25 })}`)
    replace(runs, table('Job runs, newest first', ['Run', 'Job', 'Status', 'Started', 'Took', 'Progress', 'Counts', 'Error'],
      page.data.map((run) => [String(run.id), run.job, statusBadge(run), formatTime(run.started_at),
        run.duration_ms === null ? `${duration(run.elapsed_ms)} so far` : `${run.duration_ms} ms`, progressText(run),
        Object.entries(run.counts).map(([k, v]) => `${k.replaceAll('_', ' ')} ${v}`).join(', ') || '—', run.error ?? '—'])),
    nextPageLink(page.pagination))
  }
  // Runs already going (scheduled, from another tab or instance) that can be followed and cancelled here.
  const going = await get('/api/jobs?status=running&limit=25')
  for (const run of going.data.filter((r) => r.cancellable).reverse()) follow(run)
  await refreshRuns()
}
