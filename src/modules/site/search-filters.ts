/**
 * The filters of the site's search and of its feed: the Data API's paper filters (topic, study type,
 * dates published and indexed, preprint, minimum relevance: read and refused as /api/v1/papers reads them, but
 * with every judged and unjudged paper by default), shown as a form and as links that set one
 * filter and keep the others.
 */
import type { PaperFilters } from '../../resources/papers/queries'
import { STUDY_TYPE_LABELS, STUDY_TYPES, TOPIC_INFO, type StudyType } from '../../taxonomy'
import { numberParam, parseParams, stringParam } from '../v1/params'
import { paperFilterParams } from '../v1/papers'
import { escapeXml as e } from './render'
import { dateFields } from './search-dates'

export const searchParams = {
  q: stringParam('Words to find in titles and abstracts.', 500, 0),
  ...paperFilterParams,
  min_relevance: numberParam('Lowest relevance (0 to 3); 0, the default, keeps unjudged papers.', 0, 3, 0),
}

export type SearchQuery = { q: string; filters: PaperFilters; values: Record<string, string> }

/**
 * Parameters links carry for analytics (utm_source from a newsletter, a click id from a social site): a shared
 * search link keeps working with them, while a misspelt filter is still told apart as a 400.
 */
const TRACKING = /^(utm_[a-z]+|fbclid|gclid|msclkid|mc_cid|mc_eid)$/

/**
 * The request's search, its empty parameters (a form's "any") and tracking tags left out; a bad value is a 400 naming
 * it.
 */
export function searchQueryOf(url: string): SearchQuery {
  const given = new URL(url)
  const kept = new URLSearchParams([...given.searchParams].filter(([k, v]) => v !== '' && !TRACKING.test(k)))
  const p = parseParams(`${given.origin}${given.pathname}?${kept}`, searchParams)
  return {
    q: (p.q ?? '').trim(),
    filters: {
      since: p.since,
      until: p.until,
      publishedSince: p.published_since,
      publishedUntil: p.published_until,
      minRelevance: p.min_relevance ?? 0,
      studyType: p.study_type,
      topic: p.topic,
      preprint: p.preprint,
    },
    values: Object.fromEntries([...kept].filter(([k]) => k !== 'q')),
  }
}

/** The query string of a search with `change` applied (null removes a filter). */
export function withFilter(s: SearchQuery, change: Record<string, string | null>): string {
  const next = new URLSearchParams({ q: s.q, ...s.values })
  for (const [k, v] of Object.entries(change))
    if (v === null) next.delete(k)
    else next.set(k, v)
  return next.toString()
}

const RELEVANCE = [
  ['', 'Any'],
  ['1', 'Tangential and up'],
  ['2', 'Aging biology'],
  ['2.5', 'Core aging biology'],
] as const
const TOPIC_OPTIONS = [['', 'Any'], ...TOPIC_INFO.map((t) => [t.slug, t.name] as const)] as const
const STUDY_TYPE_OPTIONS = [
  ['', 'Any'],
  ...STUDY_TYPES.map((t) => [t, STUDY_TYPE_LABELS[t as StudyType]] as const),
] as const
const PREPRINT = [
  ['', 'Both'],
  ['false', 'Peer reviewed'],
  ['true', 'Preprints only'],
] as const

function select(name: string, label: string, options: readonly (readonly [string, string])[], value: string): string {
  return `<label>${e(label)} <select name="${name}">${options
    .map(([v, text]) => `<option value="${e(v)}"${v === value ? ' selected' : ''}>${e(text)}</option>`)
    .join('')}</select></label>`
}

/** The search form with every filter (a GET form: a filtered search is a link). */
export function searchFormHtml(s: SearchQuery): string {
  const v = s.values
  return `<form class="search" role="search" action="/search" method="get"><label for="q">Search papers</label>
<input id="q" name="q" type="search" value="${e(s.q)}" maxlength="500" placeholder="e.g. senolytic OR rapamycin">
<button type="submit">Search</button>
<details class="filters"${Object.keys(v).length ? ' open' : ''}><summary>Filters</summary><div class="fields">
${select('topic', 'Topic', TOPIC_OPTIONS, v.topic ?? '')}
${select('study_type', 'Study type', STUDY_TYPE_OPTIONS, v.study_type ?? '')}
${select('min_relevance', 'Relevance', RELEVANCE, v.min_relevance ?? '')}
${select('preprint', 'Peer review', PREPRINT, v.preprint ?? '')}
${dateFields(v)}</div></details></form>`
}

/** One filter as links: each value a link that sets it, the current one marked, and "any" to remove it. */
function linkRow(s: SearchQuery, name: string, label: string, options: readonly (readonly [string, string])[]): string {
  const current = s.values[name] ?? ''
  return `<li><span class="meta">${e(label)}:</span> ${options
    .map(([value, text]) =>
      value === current
        ? `<strong aria-current="true">${e(text)}</strong>`
        : `<a href="/search?${e(withFilter(s, { [name]: value || null }))}">${e(text)}</a>`,
    )
    .join(' · ')}</li>`
}

/** The filters as links under the form (with a search only). */
export function filterLinksHtml(s: SearchQuery): string {
  if (s.q === '') return ''
  return `<nav aria-label="Filters"><ul class="filter-links">
${linkRow(s, 'topic', 'Topic', TOPIC_OPTIONS)}
${linkRow(s, 'study_type', 'Study type', STUDY_TYPE_OPTIONS)}
${linkRow(s, 'min_relevance', 'Relevance', RELEVANCE)}
${linkRow(s, 'preprint', 'Peer review', PREPRINT)}</ul></nav>`
}
