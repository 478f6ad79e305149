// DOM building without HTML strings: every piece of data becomes a text node, so a hostile title
// or name shows as the text it is and never as markup. Links to data go through safeHref.

/**
 * h('p', { class: 'meta' }, 'text', child) — attributes are set one by one (on* handlers are
 * refused: listeners are added with `on`), children are nodes or strings (made text nodes).
 */
export function h(tag, attributes = {}, ...children) {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue
    if (name === 'on') {
      for (const [event, handler] of Object.entries(value)) el.addEventListener(event, handler)
    } else if (/^on/i.test(name)) {
      throw new Error(`event handler attributes are not used: ${name}`)
    } else if (name === 'href') {
      el.setAttribute('href', value)
    } else {
      el.setAttribute(name, value === true ? '' : String(value))
    }
  }
  append(el, children)
  return el
}

/** Appends nodes and strings (as text), arrays flattened, null, undefined and false left out. */
export function append(el, ...children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue
    el.append(child instanceof Node ? child : document.createTextNode(String(child)))
  }
  return el
}

/** The URL as an href only when it is an absolute http(s) URL; null otherwise (javascript:, data:, ...). */
export function safeHref(url) {
  if (typeof url !== 'string') return null
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null
  } catch {
    return null
  }
}

/** A link to outside data when its URL is safe, else the text alone (and the refused URL as text). */
export function externalLink(url, label = url) {
  const href = safeHref(url)
  if (!href) return h('span', { class: 'refused' }, label, url && label !== url ? ` (${url})` : '')
  return h('a', { href, rel: 'noopener noreferrer' }, label)
}

/** A link inside the console (paths we make ourselves). */
export const consoleLink = (path, label) => h('a', { href: path }, label)

export function formatTime(iso) {
  if (!iso) return '—'
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? String(iso) : d.toISOString().replace('T', ' ').slice(0, 16) + ' UTC'
}

let fieldSerial = 0
/** A labelled form field: input, select or textarea, with an optional hint tied by aria-describedby. */
export function field(label, control, hint) {
  const id = control.id || `f${++fieldSerial}`
  control.id = id
  const parts = [h('label', { for: id }, label)]
  if (hint) {
    const hintId = `${id}-hint`
    control.setAttribute('aria-describedby', hintId)
    parts.push(h('span', { class: 'hint', id: hintId }, hint))
  }
  parts.push(control)
  return h('div', { class: 'field' }, parts)
}

/**
 * A table inside a focusable, labelled region that scrolls on its own if it must. Under 700 px the
 * stylesheet stacks each row as a card, every cell led by its column's name (data-label); the
 * explicit roles keep it a table for assistive technology whatever its display.
 */
export function table(caption, headings, rows) {
  const captionId = `t${++fieldSerial}`
  return h('div', { class: 'table-wrap', role: 'region', 'aria-labelledby': captionId, tabindex: '0' },
    h('table', { role: 'table', 'aria-labelledby': captionId },
      h('caption', { id: captionId }, caption),
      h('thead', { role: 'rowgroup' }, h('tr', { role: 'row' }, headings.map((heading) => h('th', { scope: 'col', role: 'columnheader' }, heading)))),
      h('tbody', { role: 'rowgroup' }, rows.length === 0
        ? h('tr', { role: 'row' }, h('td', { role: 'cell', colspan: String(headings.length), class: 'empty' }, 'None yet.'))
        : rows.map((cells) => h('tr', { role: 'row' }, cells.map((cell, i) => h('td', { role: 'cell', 'data-label': headings[i] }, cell)))))))
}

/** Replaces the children of an element. */
export function replace(el, ...children) {
  el.replaceChildren()
  return append(el, ...children)
}

/** Tells the user something in the live region (role=status), and as an alert when it is an error. */
export function announce(message, kind = 'info') {
  const status = document.getElementById('status')
  replace(status, h('p', { class: `message ${kind}`, role: kind === 'error' ? 'alert' : null }, message))
}

/** Sets the page title and the screen heading, and starts the screen's content. */
export function begin(main, title, intro) {
  document.title = `${title} · Geroscope console`
  replace(main, h('h1', {}, title), intro ? h('p', { class: 'intro' }, intro) : null)
  return main
}

/** A "Next page" link keeping the screen's other query parameters (cursors are opaque). */
export function nextPageLink(pagination, label = 'Next page') {
  if (!pagination?.has_more || !pagination.next_cursor) return null
  const search = new URLSearchParams(location.search)
  search.set('cursor', pagination.next_cursor)
  return h('p', { class: 'pager' }, h('a', { href: `${location.pathname}?${search}` }, label),
    search.size > 1 || location.search.includes('cursor=') ? [' · ', h('a', { href: firstPage() }, 'First page')] : null)
}

function firstPage() {
  const search = new URLSearchParams(location.search)
  search.delete('cursor')
  return search.size ? `${location.pathname}?${search}` : location.pathname
}
