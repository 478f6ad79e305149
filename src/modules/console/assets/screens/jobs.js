// Jobs: run a scrape (POST /api/scrape), an analysis (POST /api/analyze) or the intelligence job
// (POST /api/intelligence/refresh) and see what it did; every run, filtered (GET /api/jobs).
import { get, post, query } from '../api.js'
import { announce, append, begin, field, formatTime, h, nextPageLink, replace, table } from '../dom.js'
import { input, onSubmit, select, submit } from '../forms.js'
import { analyzeResult, refreshResult, scrapeResult, statusBadge } from './results.js'

const STATUSES = ['running', 'ok', 'partial', 'failed']
const JOBS = ['scrape', 'analyze', 'harvest', 'intelligence', 'refresh', 'search-sync', 'purge-sessions', 'purge-rate-limits']

export async function render(main, { params }) {
  begin(main, 'Jobs', 'Run the scraper, the analysis or the intelligence job now (each answers when done), and see every run.')
  const result = h('div', { id: 'job-result', tabindex: '-1' })
  const show = async (title, action, draw) => {
    announce(`${title}…`)
    const answer = await action()
    replace(result, draw(answer.data))
    announce(`${title}: done.`)
  }
  const scrape = onSubmit(h('form', { class: 'card', 'aria-labelledby': 'run-scrape' },
    h('h2', { id: 'run-scrape' }, 'Scrape'), h('p', {}, 'Fetches every enabled source once.'), submit('Scrape all sources')),
  () => show('Scraping', () => post('/api/scrape', {}), scrapeResult))
  const analyze = onSubmit(h('form', { class: 'card', 'aria-labelledby': 'run-analysis' },
    h('h2', { id: 'run-analysis' }, 'Analyse'),
    field('At most this many papers and articles', input({ name: 'limit', type: 'number', min: '1', max: '10000', value: '100', inputmode: 'numeric' })),
    h('div', { class: 'field check' }, h('input', { type: 'checkbox', name: 'stale', id: 'analyze-stale' }), h('label', { for: 'analyze-stale' }, 'Also redo papers judged with an older judge prompt')),
    submit('Run analysis')),
  (data) => show('Analysing', () => post('/api/analyze', { limit: Number(data.get('limit')), stale: data.get('stale') === 'on' }), analyzeResult))
  const refresh = onSubmit(h('form', { class: 'card', 'aria-labelledby': 'run-refresh' },
    h('h2', { id: 'run-refresh' }, 'Contradictions and gaps'), h('p', {}, 'Recomputes them from the claims now.'), submit('Recompute')),
  () => show('Recomputing contradictions and gaps', () => post('/api/intelligence/refresh', {}), refreshResult))

  const job = params.get('job') ?? ''
  const status = params.get('status') ?? ''
  const filter = h('form', { method: 'get', action: '/console/jobs', class: 'filters', 'aria-labelledby': 'runs-heading' },
    field('Job', select('job', [['', 'Any job'], ...JOBS.map((j) => [j, j])], job)),
    field('Status', select('status', [['', 'Any status'], ...STATUSES.map((s) => [s, s])], status)),
    submit('Filter'))
  const runs = h('div', { id: 'job-runs' })
  append(main, h('div', { class: 'grid' }, scrape, analyze, refresh), result,
    h('section', { 'aria-labelledby': 'runs-heading' }, h('h2', { id: 'runs-heading' }, 'Job runs'), filter, runs))
  const page = await get(`/api/jobs${query({ job, status, cursor: params.get('cursor'), limit: 25 })}`)
  replace(runs, table('Job runs, newest first', ['Run', 'Job', 'Status', 'Started', 'Took', 'Counts', 'Error'],
    page.data.map((run) => [String(run.id), run.job, statusBadge(run), formatTime(run.started_at),
      run.duration_ms === null ? '—' : `${run.duration_ms} ms`,
      Object.entries(run.counts).map(([k, v]) => `${k.replaceAll('_', ' ')} ${v}`).join(', ') || '—', run.error ?? '—'])),
  nextPageLink(page.pagination))
}
