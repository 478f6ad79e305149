// Briefs: generate one from a date window (POST /api/generate-brief) or from tags
// (POST /api/generate-brief/tag-based), and list the stored ones (GET /api/briefs).
import { get, post, query } from '../api.js'
import { announce, append, begin, field, formatTime, h, nextPageLink, table } from '../dom.js'
import { input, onSubmit, submit, words } from '../forms.js'
import { TOPICS } from '../vocabulary.js'

const topicChoices = (prefix) => h('fieldset', { class: 'choices' },
  h('legend', {}, 'Topics (optional)'),
  TOPICS.map((topic) => h('div', { class: 'check' },
    h('input', { type: 'checkbox', name: 'topics', value: topic.slug, id: `${prefix}-${topic.slug}` }),
    h('label', { for: `${prefix}-${topic.slug}` }, topic.name))))

const windowFields = (prefix) => [
  field('From (first day)', input({ name: 'since', type: 'date', id: `${prefix}-since` })),
  field('Until (last day)', input({ name: 'until', type: 'date', id: `${prefix}-until` })),
  field('Title (optional)', input({ name: 'title', maxlength: '200', id: `${prefix}-title` }), 'Leave empty to use the written title.'),
]

/** The form's values as the body of a generate request: empty fields left out. */
function briefBody(data, tagged) {
  const body = {}
  for (const name of ['since', 'until', 'title']) if (String(data.get(name) ?? '').trim()) body[name] = String(data.get(name)).trim()
  const topics = data.getAll('topics')
  if (topics.length) body.topics = topics
  if (tagged) {
    const entities = words(data.get('entities'))
    const sourceTags = words(data.get('source_tags'))
    if (entities.length) body.entities = entities
    if (sourceTags.length) body.source_tags = sourceTags
  }
  return body
}

export async function render(main, { params }) {
  begin(main, 'Briefs', 'Briefs cite every statement: papers as P1, P2, …, feed articles as A1, A2, ….')
  const byWindow = h('form', { class: 'card', 'aria-labelledby': 'gen-window' },
    h('h2', { id: 'gen-window' }, 'Generate a brief for a window'),
    h('p', { class: 'hint' }, 'The most newsworthy papers and the feed articles analysed in the window (the last 7 days by default).'),
    windowFields('w'), topicChoices('w'), submit('Generate brief'))
  const byTags = h('form', { class: 'card', 'aria-labelledby': 'gen-tags' },
    h('h2', { id: 'gen-tags' }, 'Generate a brief by tags'),
    h('p', { class: 'hint' }, 'Items with any of the tags (the last 30 days by default). Give at least one topic, entity or source tag.'),
    windowFields('t'), topicChoices('t'),
    field('Entities', input({ name: 'entities', id: 't-entities', maxlength: '2000' }), 'type:key, separated by commas, e.g. intervention:CHEBI:9168.'),
    field('Source tags', input({ name: 'source_tags', id: 't-source-tags', maxlength: '2000' }), 'Tags of RSS sources, separated by commas.'),
    submit('Generate tag-based brief'))
  const generate = (path, tagged) => async (data) => {
    announce('Writing the brief…')
    const answer = await post(path, briefBody(data, tagged))
    announce(`Brief ${answer.data.id} written.`)
    location.assign(`/console/briefs/${answer.data.id}`)
  }
  onSubmit(byWindow, generate('/api/generate-brief', false))
  onSubmit(byTags, generate('/api/generate-brief/tag-based', true))
  const list = h('section', { 'aria-labelledby': 'brief-list' }, h('h2', { id: 'brief-list' }, 'Stored briefs'))
  append(main, h('div', { class: 'grid two' }, byWindow, byTags), list)
  const page = await get(`/api/briefs${query({ cursor: params.get('cursor'), limit: 25 })}`)
  append(list, table('Briefs, newest first', ['Title', 'Kind', 'Window', 'Statements', 'Written by', 'Created'],
    page.data.map((brief) => [
      h('a', { href: `/console/briefs/${brief.id}` }, brief.title),
      brief.kind === 'tag_based' ? 'by tags' : 'by window', `${brief.window.since} to ${brief.window.until}`,
      String(brief.counts.statements ?? '—'), brief.model, formatTime(brief.created_at),
    ])), nextPageLink(page.pagination))
}
