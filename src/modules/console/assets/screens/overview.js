// Overview: the session, charts of the service at a glance (GET /api/overview/charts: drawn as SVG by
// the service, with their numbers), the sources and the latest job runs.
import { get } from '../api.js'
import { append, begin, formatTime, h, table } from '../dom.js'

/**
 * A chart's SVG as a node. The markup is the service's own drawing (vega's SVG renderer escapes every
 * text it draws), parsed as XML, never as HTML: a script in it would not run, and the CSP allows none.
 */
function svgNode(markup) {
  const parsed = new DOMParser().parseFromString(markup, 'image/svg+xml').documentElement
  return parsed.nodeName === 'svg' ? document.importNode(parsed, true) : h('p', {}, 'The chart could not be drawn.')
}

const figure = (chart) => h('figure', { class: 'chart', id: chart.id, 'aria-labelledby': `${chart.id}-caption` },
  svgNode(chart.svg.wide), svgNode(chart.svg.narrow),
  h('figcaption', { id: `${chart.id}-caption` }, h('strong', {}, `${chart.title}. `), chart.description),
  h('details', {}, h('summary', {}, 'The numbers'),
    table(chart.title, chart.table.head, chart.table.rows.map((r) => r.map(String)))))

export async function render(main, { user, session }) {
  begin(main, 'Overview')
  append(main, h('p', {}, `Signed in as ${user.username}. The session ends at ${formatTime(session.expires_at)}, or at ${formatTime(session.idle_expires_at)} if idle.`))
  const [sources, jobs, charts] = await Promise.all([
    get('/api/sources'), get('/api/jobs?limit=5'), get('/api/overview/charts'),
  ])
  const failing = sources.data.filter((s) => s.last_status === 'failed')
  append(main,
    h('section', { 'aria-labelledby': 'ov-charts' },
      h('h2', { id: 'ov-charts' }, 'At a glance'),
      charts.data.map(figure)),
    h('section', { 'aria-labelledby': 'ov-sources' },
      h('h2', { id: 'ov-sources' }, 'Sources'),
      h('p', {}, `${sources.data.length} sources, ${sources.data.filter((s) => s.enabled).length} enabled, ${failing.length} failing. `,
        h('a', { href: '/console/sources' }, 'Manage sources'))),
    h('section', { 'aria-labelledby': 'ov-jobs' },
      h('h2', { id: 'ov-jobs' }, 'Latest job runs'),
      table('The five latest job runs', ['Job', 'Status', 'Started', 'Error'],
        jobs.data.map((run) => [run.job, run.status, formatTime(run.started_at), run.error ?? '—'])),
      h('p', {}, h('a', { href: '/console/jobs' }, 'Run jobs and see every run'))))
}
