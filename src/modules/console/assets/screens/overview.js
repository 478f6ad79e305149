// Overview: the session, the sources at a glance and the latest job runs.
import { get } from '../api.js'
import { append, begin, formatTime, h, table } from '../dom.js'

export async function render(main, { user, session }) {
  begin(main, 'Overview')
  append(main, h('p', {}, `Signed in as ${user.username}. The session ends at ${formatTime(session.expires_at)}, or at ${formatTime(session.idle_expires_at)} if idle.`))
  const [sources, jobs] = await Promise.all([get('/api/sources'), get('/api/jobs?limit=5')])
  const failing = sources.data.filter((s) => s.last_status === 'failed')
  append(main, 
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
