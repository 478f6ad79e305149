// Review: work through the judgements that most need a human (GET /api/review), one paper at a
// time, with the keyboard: a accepts the judgement as it is (PUT /api/papers/{id}/judgement with its
// current values, so it becomes the editor's), c opens the correction form, n or j goes to the next
// paper without changing anything. A judgement accepted or corrected leaves the queue.
import { api, get, query } from '../api.js'
import { announce, append, begin, externalLink, field, h, replace } from '../dom.js'
import { input, onSubmit, select, submit } from '../forms.js'
import { STUDY_TYPES, TOPICS } from '../vocabulary.js'

const REASONS = [['', 'Any reason'], ['low_confidence', 'Low confidence'], ['audit', 'Audit sample']]
const nameOf = (list, slug) => list.find((v) => v.slug === slug)?.name ?? slug ?? '—'
const percent = (x) => (x === null || x === undefined ? '—' : `${Math.round(x * 100)}%`)

export async function render(main, { params }) {
  begin(main, 'Review', 'Judgements that most need a human: the least confident first, then a small audit sample. ' +
    'Keys: a accepts the judgement as it is, c corrects it, n or j goes to the next paper.')
  const filters = { reason: params.get('reason') ?? '', topic: params.get('topic') ?? '', study_type: params.get('study_type') ?? '' }
  const filterForm = h('form', { method: 'get', action: '/console/review', class: 'filters', 'aria-label': 'Filter the queue' },
    field('Reason', select('reason', REASONS, filters.reason)),
    field('Topic', select('topic', [['', 'Any topic'], ...TOPICS.map((t) => [t.slug, t.name])], filters.topic)),
    field('Study type', select('study_type', [['', 'Any study type'], ...STUDY_TYPES.map((t) => [t.slug, t.name])], filters.study_type)),
    submit('Filter'))
  const card = h('section', { class: 'card review', id: 'review-item', 'aria-live': 'polite', tabindex: '-1' })
  append(main, filterForm, card)

  let items = []
  let at = 0
  let cursor = null
  let hasMore = true
  let busy = false
  let reviewed = 0

  const fetchPage = async () => {
    const page = await get(`/api/review${query({ ...filters, cursor, limit: 25 })}`)
    items = page.data
    at = 0
    cursor = page.pagination.next_cursor
    hasMore = page.pagination.has_more
  }

  const current = () => items[at] ?? null

  const next = async () => {
    at++
    if (at >= items.length && hasMore) await fetchPage()
    draw()
  }

  const correctionForm = (item) => {
    const j = item.judgement
    const form = h('form', { class: 'correction', 'aria-labelledby': 'correction-heading' },
      h('h3', { id: 'correction-heading' }, 'Correct the judgement'),
      field('Relevance', input({ name: 'relevance', type: 'number', min: '0', max: '3', step: '0.01', required: true, value: String(j.relevance) }),
        '0 not ageing biology, 1 tangential, 2 ageing biology, 3 core.'),
      field('Study type', select('study_type', STUDY_TYPES.map((t) => [t.slug, t.name]), j.study_type ?? 'other')),
      field('Topic', select('topic', TOPICS.map((t) => [t.slug, t.name]), j.topic ?? 'other')),
      field('Newsworthiness', input({ name: 'newsworthiness', type: 'number', min: '0', max: '3', step: '0.1', required: true, value: String(j.newsworthiness ?? 0) })),
      field('Note', h('textarea', { name: 'note', rows: '3', maxlength: '2000' }), 'Why, for the history and the exported labels (optional).'),
      h('div', { class: 'actions' }, submit('Save correction'), h('button', { type: 'button', class: 'link-button', on: { click: () => draw() } }, 'Cancel')))
    onSubmit(form, async (data) => {
      const note = String(data.get('note') ?? '')
      await save(item, {
        relevance: Number(data.get('relevance')), study_type: data.get('study_type'), topic: data.get('topic'),
        newsworthiness: Number(data.get('newsworthiness')), ...(note.trim() ? { note } : {}),
      }, 'Corrected')
    })
    return form
  }

  const save = async (item, body, verb) => {
    busy = true
    try {
      await api('PUT', `/api/papers/${encodeURIComponent(item.paper.id)}/judgement`, body)
      reviewed++
      announce(`${verb}: ${item.paper.title}`)
      await next()
    } finally {
      busy = false
    }
  }

  const accept = async () => {
    const item = current()
    if (!item || busy) return
    const j = item.judgement
    const body = { relevance: j.relevance }
    if (j.study_type) body.study_type = j.study_type
    if (j.topic) body.topic = j.topic
    if (j.newsworthiness !== null) body.newsworthiness = j.newsworthiness
    try {
      await save(item, body, 'Accepted')
    } catch (error) {
      announce(error.message, 'error')
    }
  }

  const openCorrection = () => {
    const item = current()
    if (!item || busy) return
    const form = correctionForm(item)
    card.querySelector('form.correction')?.remove()
    card.append(form)
    form.querySelector('input[name="relevance"]').focus()
  }

  const draw = () => {
    const item = current()
    if (!item) {
      replace(card, h('h2', {}, 'Nothing to review'),
        h('p', {}, reviewed ? `The queue is empty: ${reviewed} reviewed here.` : 'No judgement in the queue needs a human now.'))
      return
    }
    const { paper, judgement: j } = item
    replace(card,
      h('p', { class: 'meta' }, h('span', { class: 'badge' }, item.reason === 'audit' ? 'Audit sample' : 'Low confidence'),
        ` lowest confidence ${percent(item.confidence)} · paper ${at + 1} of ${items.length} on this page${hasMore ? ' (more after)' : ''}`),
      h('h2', { id: 'review-title' }, paper.title),
      h('p', { class: 'meta' }, [paper.journal, paper.published_date, paper.publication_types.join(', ')].filter(Boolean).join(' · '), ' · ',
        externalLink(paper.url, paper.id)),
      paper.abstract ? h('p', { class: 'abstract' }, paper.abstract) : h('p', { class: 'meta' }, 'No abstract.'),
      h('dl', { class: 'judgement', 'aria-label': 'The judgement' },
        h('dt', {}, 'Relevance'), h('dd', {}, `${j.relevance} (confidence ${percent(j.relevance_confidence)})`),
        h('dt', {}, 'Study type'), h('dd', {}, `${nameOf(STUDY_TYPES, j.study_type)} (confidence ${percent(j.study_type_confidence)})`),
        h('dt', {}, 'Topic'), h('dd', {}, `${nameOf(TOPICS, j.topic)} (confidence ${percent(j.topic_confidence)})`),
        h('dt', {}, 'Newsworthiness'), h('dd', {}, j.newsworthiness === null ? '—' : String(j.newsworthiness)),
        h('dt', {}, 'Judged by'), h('dd', {}, `${j.model}${j.prompt_version ? ` (${j.prompt_version})` : ''}`)),
      h('div', { class: 'actions' },
        h('button', { type: 'button', 'aria-keyshortcuts': 'a', on: { click: accept } }, 'Accept (a)'),
        h('button', { type: 'button', 'aria-keyshortcuts': 'c', on: { click: openCorrection } }, 'Correct (c)'),
        h('button', { type: 'button', 'aria-keyshortcuts': 'n j', on: { click: () => next().catch((e) => announce(e.message, 'error')) } }, 'Next (n)')))
  }

  // Keys act on the paper shown, never while typing in a field or with a modifier held.
  const onKey = (event) => {
    if (!document.body.contains(card)) return document.removeEventListener('keydown', onKey)
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return
    if (event.target instanceof Element && event.target.closest('input, textarea, select, [contenteditable]')) {
      if (event.key === 'Escape' && event.target.closest('form.correction')) draw()
      return
    }
    const action = { a: accept, c: openCorrection, n: () => next(), j: () => next() }[event.key]
    if (!action || busy) return
    event.preventDefault()
    Promise.resolve(action()).catch((error) => announce(error.message, 'error'))
  }
  document.addEventListener('keydown', onKey)

  await fetchPage()
  draw()
}
