// One brief (GET /api/briefs/{id}): its summary and sections, each statement with links to the
// citations it rests on, and the citations with their sources and links.
import { get } from '../api.js'
import { append, begin, externalLink, formatTime, h, safeHref } from '../dom.js'

const citeId = (ref) => `cite-${String(ref).replace(/[^A-Za-z0-9_-]/g, '_')}`

function statement(s) {
  return h('li', {}, s.text, ' ', s.citations.map((ref, i) => [i ? ' ' : '', h('a', { href: `#${citeId(ref)}`, class: 'ref' }, `[${ref}]`)]))
}

export async function render(main, { match }) {
  const { data: brief } = await get(`/api/briefs/${match[1]}`)
  begin(main, brief.title)
  const filters = Object.entries(brief.filters).filter(([, values]) => values.length).map(([name, values]) => `${name.replace('_', ' ')}: ${values.join(', ')}`)
  append(main, 
    h('p', { class: 'meta' }, `${brief.kind === 'tag_based' ? 'Tag-based brief' : 'Brief'} for ${brief.window.since} to ${brief.window.until}`,
      filters.length ? ` (${filters.join('; ')})` : '', ` · written by ${brief.model}`, brief.prompt_version ? ` with prompt ${brief.prompt_version}` : '',
      ` · ${formatTime(brief.created_at)}`),
    h('p', {}, h('a', { href: '/console/briefs' }, 'All briefs')),
    h('section', { 'aria-labelledby': 'brief-summary' }, h('h2', { id: 'brief-summary' }, 'Summary'), h('ul', { class: 'statements' }, brief.summary.map(statement))),
    brief.sections.map((section, i) => h('section', { 'aria-labelledby': `section-${i}` },
      h('h2', { id: `section-${i}` }, section.heading), h('ul', { class: 'statements' }, section.statements.map(statement)))),
    h('section', { 'aria-labelledby': 'brief-citations' }, h('h2', { id: 'brief-citations' }, 'Citations'),
      h('ol', { class: 'citations' }, brief.citations.map((c) => h('li', { id: citeId(c.ref) },
        h('strong', {}, `[${c.ref}] `), c.url ? externalLink(c.url, c.title) : c.title,
        h('span', { class: 'meta' }, ` · ${c.source}${c.date ? ` · ${c.date}` : ''}${c.paper_id ? ` · ${c.paper_id}` : ''}`),
        safeHref(c.site_url) ? [' · ', h('a', { href: safeHref(c.site_url), rel: 'noopener noreferrer' }, 'on the site')] : null)))),
  )
}
