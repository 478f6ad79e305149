// A job run followed while it goes: done of total, elapsed time and a Cancel button (GET /api/jobs/runs/{id},
// POST /api/jobs/runs/{id}/cancel). The run may go on in another instance; all this reads is its row.
import { get, post } from './api.js'
import { announce, h, replace } from './dom.js'
import { countList, statusBadge } from './screens/results.js'

/** How often the run is read: the admin interface allows an operator 100 requests a minute. */
export const POLL_MS = 1500

const JOB_NAMES = { scrape: 'Scrape', analyze: 'Analysis', export: 'Export' }

/** 75 s → "1 min 15 s". */
export function duration(ms) {
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 60) return `${s} s`
  const m = Math.floor(s / 60)
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`
}

/**
 * A panel for run `run` (as GET /api/jobs/runs/{id} answers it) that follows it until it ends, then shows what it
 * did and calls `onEnd(run)`. The elapsed time counts on between reads, from the service's own figure.
 */
export function followRun(run, onEnd) {
  const title = `${JOB_NAMES[run.job] ?? run.job} run ${run.id}`
  const headingId = `progress-${run.id}`
  const bar = h('progress', { max: '1', value: '0', 'aria-labelledby': headingId })
  const figures = h('p', { class: 'progress-figures' })
  const elapsed = h('span', { class: 'elapsed' })
  const body = h('div', {})
  let cancelling = false
  const cancel = h('button', { type: 'button', class: 'danger', 'aria-label': `Cancel ${title}` }, 'Cancel')
  const panel = h('section', { class: 'card progress-card', 'aria-labelledby': headingId, 'data-run': String(run.id), 'aria-busy': 'true' },
    h('h3', { id: headingId }, title), bar, figures, h('p', {}, 'Elapsed: ', elapsed), body, h('div', { class: 'actions' }, cancel))

  let last = run
  let readAt = performance.now()
  let timer = null
  let ticker = null

  const draw = () => {
    const p = last.progress
    if (p && p.total > 0) {
      bar.max = p.total
      bar.value = Math.min(p.done, p.total)
      figures.textContent = `${p.done} of ${p.total} ${p.unit} done`
    } else {
      bar.removeAttribute('value') // indeterminate until the run knows its total
      figures.textContent = p ? `Nothing to do (0 ${p.unit}).` : 'Starting…'
    }
    const running = last.status === 'running'
    elapsed.textContent = duration(last.elapsed_ms + (running ? performance.now() - readAt : 0))
    if (running && last.cancel_requested_at) {
      figures.textContent += ' · cancelling: it stops after the current unit'
      cancel.disabled = true
      cancel.textContent = 'Cancelling…'
    }
  }

  const end = () => {
    clearInterval(ticker)
    clearTimeout(timer)
    panel.removeAttribute('aria-busy')
    cancel.remove()
    const p = last.progress
    replace(body, h('p', {}, statusBadge(last), last.error ? ` ${last.error}` : ''), countList(last.counts))
    draw()
    const how = last.status === 'cancelled' ? `cancelled after ${p ? `${p.done} of ${p.total} ${p.unit}` : 'part of its work'}` : last.status
    announce(`${title} ended: ${how}, in ${duration(last.elapsed_ms)}.`, last.status === 'failed' ? 'error' : 'info')
    onEnd?.(last)
  }

  const poll = async () => {
    try {
      last = await get(`/api/jobs/runs/${run.id}`).then((answer) => answer.data)
      readAt = performance.now()
    } catch (error) {
      figures.textContent = `Cannot read the run now (${error.message}); trying again.`
    }
    if (last.status !== 'running') return end()
    draw()
    timer = setTimeout(poll, POLL_MS)
  }

  cancel.addEventListener('click', async () => {
    if (cancelling) return
    cancelling = true
    cancel.disabled = true
    cancel.textContent = 'Cancelling…'
    try {
      last = (await post(`/api/jobs/runs/${run.id}/cancel`, {})).data
      readAt = performance.now()
      announce(`${title}: cancelling; it stops after the ${last.progress?.unit === 'sources' ? 'source' : 'unit'} in progress.`)
      draw()
    } catch (error) {
      // 409: it ended meanwhile; the next read shows how.
      announce(error.message, error.status === 409 ? 'info' : 'error')
      cancelling = false
      cancel.disabled = false
      cancel.textContent = 'Cancel'
    }
  })

  draw()
  if (run.status !== 'running') {
    queueMicrotask(end)
  } else {
    ticker = setInterval(draw, 1000)
    timer = setTimeout(poll, POLL_MS)
  }
  return panel
}
