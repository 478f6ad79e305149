/**
 * One search hit as the site shows it: title, our judgement as a badge, the story's headline when we
 * wrote one, and a snippet of the abstract (only where its licence allows reuse) around the first
 * word found, the words found marked. Everything from the paper is escaped.
 */
import type { PaperListRow } from '../../resources/papers/queries'
import { paperSiteUrl, storyUrl } from '../../public-urls'
import { licenseAllowsReuse, STUDY_TYPE_LABELS, type StudyType } from '../../taxonomy'
import { escapeXml as e } from './render'

/** Our relevance judgement in words (null: not judged). */
export function relevanceWords(relevance: number | null): string | null {
  if (relevance === null) return null
  if (relevance >= 2.5) return 'core aging biology'
  return relevance >= 2 ? 'aging biology' : relevance >= 1 ? 'tangential to aging' : 'not about aging'
}

/** The words a query looks for: its terms and phrases, without OR and the -excluded ones. */
export function searchedWords(q: string): string[] {
  const terms = q.match(/-?"[^"]*"?|\S+/g) ?? []
  return terms
    .filter((t) => !t.startsWith('-') && t !== 'OR')
    .map((t) => t.replace(/"/g, '').trim())
    .filter((t) => t.length >= 2)
}

const SNIPPET = 240
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** About SNIPPET characters of `text` around the first word found, each word found (and its endings) in <mark>. */
export function snippetHtml(text: string, words: string[]): string {
  if (words.length === 0) return ''
  const alternatives = words.map((w) => escapeRegExp(w).replace(/\s+/g, '\\s+')).join('|')
  const found = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives})[\\p{L}\\p{N}]*`, 'giu')
  const first = text.search(found)
  if (first < 0) return ''
  const start = Math.max(0, text.lastIndexOf(' ', Math.max(0, first - SNIPPET / 3)))
  const end = Math.min(text.length, start + SNIPPET)
  const cut = text.slice(start, end).trim()
  let html = ''
  let at = 0
  for (const m of cut.matchAll(found)) {
    html += `${e(cut.slice(at, m.index))}<mark>${e(m[0])}</mark>`
    at = m.index + m[0].length
  }
  return `${start > 0 ? '… ' : ''}${html}${e(cut.slice(at))}${end < text.length ? ' …' : ''}`
}

export function hitHtml(base: string, p: PaperListRow, words: string[]): string {
  const relevance = relevanceWords(p.relevance)
  const studyType = p.studyType ? (STUDY_TYPE_LABELS[p.studyType as StudyType] ?? p.studyType) : null
  const badge = relevance
    ? `<span class="badge">${e(relevance)}${studyType ? ` · ${e(studyType.toLowerCase())}` : ''}</span>`
    : '<span class="badge">not judged yet</span>'
  const snippet = p.abstract && licenseAllowsReuse(p.abstractLicense) ? snippetHtml(p.abstract, words) : ''
  return `<li><a href="${e(paperSiteUrl(base, p.id))}">${e(p.title)}</a> ${badge}
<br><span class="meta">${e(p.journal)}${p.preprint ? ' (preprint)' : ''} · ${e(p.indexedDate)}</span>
${p.storyHeadline ? `<br>Our story: <a href="${e(storyUrl(base, p.id))}">${e(p.storyHeadline)}</a>` : ''}
${snippet ? `<p class="snippet">${snippet}</p>` : ''}</li>`
}
