/** The HTML of each public page, from rows the shared queries return. Everything user- or paper-supplied is escaped. */
import type { ClaimRow } from '../../resources/claims/claim-row'
import type { PaperListRow, PaperRow, StoryRow, getPaperDetail } from '../../resources/papers/queries'
import type { EntityListRow } from '../../resources/entities/queries'
import { isoTimestamp, type Timestamp } from '../../queries/prepared'
import type { StoryListRow } from '../../resources/stories/queries'
import { paperSiteUrl, storyUrl, topicFeedUrl, topicSiteUrl } from '../../public-urls'
import { STUDY_TYPE_LABELS, TOPIC_INFO, licenseAllowsReuse, type TopicInfo } from '../../taxonomy'
import { doiUrl, entitySitePath, identifier } from './links'
import { evidenceSitePath } from './evidence-page'
import { escapeXml as e, paragraphs } from './render'
import { filterLinksHtml, searchFormHtml, type SearchQuery } from './search-filters'
import { hitHtml, searchedWords } from './search-hits'

export const OPERATOR_CREDIT = 'Geroscope'

const topicName = (slug: string | null) => TOPIC_INFO.find((t) => t.slug === slug)?.name ?? null
const count = (n: number, noun: string) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`
const date = (d: Timestamp | null) => (d === null ? null : isoTimestamp(d).slice(0, 10))

export const feedLink = (title: string, href: string) =>
  `<link rel="alternate" type="application/rss+xml" title="${e(title)}" href="${e(href)}">`

/** The search form; `fields` are more of its fields (the search page's date filters), after the words. */
export function searchForm(q = '', fields = ''): string {
  return `<form class="search" role="search" action="/search" method="get"><label for="q">Search papers</label>
<input id="q" name="q" type="search" value="${e(q)}" maxlength="500" placeholder="e.g. senolytic OR rapamycin">\
<button type="submit">Search</button>${fields}</form>`
}

function storyLine(base: string, r: StoryListRow): string {
  const topic = topicName(r.paper.topic)
  return (
    `<li><a href="${e(storyUrl(base, r.paper.id))}">${e(r.story.headline)}</a><br>` +
    `<span class="meta">${e(r.story.dek)}${topic ? ` · ${e(topic)}` : ''} · ${date(r.story.publishedAt)}</span></li>`
  )
}

/** The stories as a list, or the paragraph `empty` when there are none (each page words it its own way). */
function storyList(base: string, stories: StoryListRow[], empty: string): string {
  return stories.length
    ? `<ul class="items">${stories.map((r) => storyLine(base, r)).join('')}</ul>`
    : `<p>${empty}</p>`
}

/** One paper of a topic's or an entity's list: its title linked, then where and when it was indexed. */
function paperLine(base: string, p: PaperRow): string {
  return (
    `<li><a href="${e(paperSiteUrl(base, p.id))}">${e(p.title)}</a> ` +
    `<span class="meta">${e(p.journal)} · ${e(p.indexedDate)}</span></li>`
  )
}

export function homePage(
  base: string,
  stories: StoryListRow[],
  topics: (TopicInfo & { papers_total: number; papers_7d: number })[],
  charts = '',
): { title: string; body: string } {
  const topicLines = topics
    .map(
      (t) =>
        `<li><a href="${e(topicSiteUrl(base, t.slug))}">${e(t.name)}</a> <span class="meta">` +
        `${count(t.papers_total, 'paper')}, ${t.papers_7d.toLocaleString('en')} this week</span></li>`,
    )
    .join('')
  return {
    title: 'Aging research, read for you',
    body:
      `<h1>Geroscope</h1><p>New research on the biology of aging, judged and summarised every day. Developers: ` +
      `the <a href="/api/v1/docs">Data API</a>.</p>
${searchForm()}
<section aria-labelledby="latest"><h2 id="latest">Latest stories</h2>${storyList(base, stories, 'No stories yet.')}
<p><a href="/feed.xml">All stories as RSS</a></p></section>
${charts ? `<section aria-labelledby="activity"><h2 id="activity">Research activity</h2>${charts}</section>` : ''}
<section aria-labelledby="topics"><h2 id="topics">Topics</h2><ul class="items">${topicLines}</ul></section>`,
  }
}

/** The judgement box: each field named (relevance, study type, topic, newsworthiness), so none reads as another. */
function judgementHtml(paper: PaperRow): string {
  if (paper.relevance === null) return '<p>This paper has not been judged yet.</p>'
  const relevance =
    paper.relevance >= 2.5
      ? 'core aging biology'
      : paper.relevance >= 2
        ? 'aging biology'
        : paper.relevance >= 1
          ? 'tangential to aging'
          : 'not about aging'
  const studyType = paper.studyType
    ? (STUDY_TYPE_LABELS[paper.studyType as keyof typeof STUDY_TYPE_LABELS] ?? paper.studyType)
    : null
  const fields: [string, string][] = [
    ['Relevance', `${e(relevance)} (${paper.relevance} of 3)`],
    ['Study type', studyType ? e(studyType) : 'not judged'],
    ['Topic', topicName(paper.topic) ? e(topicName(paper.topic)!) : 'not judged'],
    ['Newsworthiness', paper.newsworthiness === null ? 'not judged' : `${paper.newsworthiness} of 3`],
  ]
  return (
    `<div class="verdict"><p><strong>Our judgement</strong></p>
<dl class="facts">${fields.map(([name, value]) => `<dt>${name}</dt><dd>${value}</dd>`).join('')}</dl>
<p class="meta">Judged by ${OPERATOR_CREDIT} (${e(paper.judgementModel ?? 'unknown model')},` +
    ` ${date(paper.judgedAt) ?? 'date unknown'}). A judgement can be wrong: read the paper.</p></div>`
  )
}

function claimText(row: ClaimRow): string {
  const side = (text: string, entity: ClaimRow['subjectEntity']) =>
    entity ? `<a href="${e(entitySitePath(entity.type, entity.key))}">${e(text)}</a>` : e(text)
  const c = row.claim
  const organism = c.organism ? ` · in ${e(c.organism)}` : ''
  const direction = c.direction ? ` · ${e(c.direction.replaceAll('_', ' '))}` : ''
  return (
    `${side(c.subjectText, row.subjectEntity)} <em>${e(c.relation.replaceAll('_', ' '))}</em>` +
    ` ${side(c.objectText, row.objectEntity)}` +
    `<span class="meta">${organism}${direction}</span>`
  )
}

export function claimList(rows: ClaimRow[], withPaper?: (row: ClaimRow) => string): string {
  // A list of claims from many papers names each claim's paper; a paper's own page leaves that out.
  const paperOf = (r: ClaimRow) => (withPaper ? ` <span class="meta">— ${withPaper(r)}</span>` : '')
  return `<ul class="items">${rows.map((r) => `<li>${claimText(r)}${paperOf(r)}</li>`).join('')}</ul>`
}

export function paperPage(
  base: string,
  d: NonNullable<Awaited<ReturnType<typeof getPaperDetail>>>,
): { title: string; body: string } {
  const { paper, story } = d
  const open = licenseAllowsReuse(paper.abstractLicense) && paper.abstract
  // The credit under a reused abstract cites the paper by its DOI where it has one.
  const abstractDoi = paper.doi ? `; <a href="${e(doiUrl(paper.doi))}">doi:${e(paper.doi)}</a>` : ''
  const abstract = open
    ? `<h2>Abstract</h2>${paragraphs(paper.abstract!)}<p class="meta">Abstract by ${e(paper.authors)}, ` +
      `licensed ${e(paper.abstractLicense!)}${abstractDoi}.</p>`
    : '<p class="meta">The abstract is not shown: its licence does not allow reuse. Read it at the publisher.</p>'
  const entityLines = d.entities
    .map(
      (x) =>
        `<li><a href="${e(entitySitePath(x.type, x.key))}">${e(x.name)}</a> ` +
        `<span class="meta">${e(x.type)} · ${e(x.role)}</span></li>`,
    )
    .join('')
  const entities = d.entities.length
    ? `<h2>What it is about</h2><ul class="items">${entityLines}</ul>
<p class="meta">Entities found by ${OPERATOR_CREDIT}.</p>`
    : ''
  const claims = d.claims.length
    ? `<h2>Claims</h2>${claimList(d.claims)}<p class="meta">Claims extracted by ${OPERATOR_CREDIT}; they can be ` +
      `wrong.</p>`
    : ''
  const summary = story
    ? `<h2>Our story</h2><p><a href="${e(storyUrl(base, paper.id))}">${e(story.headline)}</a></p>` +
      `<p>${e(story.dek)}</p><p class="meta">Written by ${OPERATOR_CREDIT} (${e(story.model)}).</p>`
    : ''
  const published = paper.publishedDate
    ? `<time datetime="${e(paper.publishedDate)}">${e(paper.publishedDate)}</time>`
    : 'unknown'
  return {
    title: paper.title,
    body:
      `<article><h1>${e(paper.title)}</h1>
<dl class="facts"><dt>Authors</dt><dd>${e(paper.authors)}</dd><dt>Journal</dt>` +
      `<dd>${e(paper.journal)}${paper.preprint ? ' (preprint, not peer reviewed)' : ''}</dd>
<dt>Published</dt><dd>${published}</dd>
<dt>Indexed</dt><dd><time datetime="${e(paper.indexedDate)}">${e(paper.indexedDate)}</time></dd>
<dt>DOI</dt><dd>${paper.doi ? `<a href="${e(doiUrl(paper.doi))}">${e(paper.doi)}</a>` : 'none'}</dd>
<dt>Source</dt><dd><a href="${e(paper.url)}">Read the paper</a> (${e(paper.id)})</dd></dl>
<h2>Judgement</h2>${judgementHtml(paper)}${summary}${entities}${claims}${abstract}</article>`,
  }
}

export function storyPage(base: string, paper: PaperRow, story: StoryRow): { title: string; body: string } {
  return {
    title: story.headline,
    body:
      `<article><h1>${e(story.headline)}</h1><p><strong>${e(story.dek)}</strong></p>
${paragraphs(story.body)}<h2>Why it matters</h2>${paragraphs(story.whyItMatters)}<h2>` +
      `Caveats</h2>${paragraphs(story.caveats)}
<p class="meta">About <a href="${e(paperSiteUrl(base, paper.id))}">${e(paper.title)}</a>` +
      ` (${e(paper.journal)}${paper.doi ? `, <a href="${e(doiUrl(paper.doi))}">doi:${e(paper.doi)}</a>` : ''}).
Written by ${OPERATOR_CREDIT} (${e(story.model)}), published <time datetime="${isoTimestamp(story.publishedAt)}"` +
      `>${date(story.publishedAt)}</time>.</p></article>`,
  }
}

export function topicPage(
  base: string,
  topic: TopicInfo,
  stories: StoryListRow[],
  papers: PaperRow[],
  next: string | null,
  nextPapers: string | null,
  charts = '',
): { title: string; body: string } {
  const olderPapers = nextPapers
    ? `<nav class="pager" aria-label="Pages of papers"><a rel="next" href="${e(nextPapers)}">Older papers</a></nav>`
    : ''
  return {
    title: topic.name,
    body:
      `<h1>${e(topic.name)}</h1><p>${e(topic.description)}</p><p><a href="${e(topicFeedUrl(base, topic.slug))}">` +
      `RSS feed of this topic's stories</a></p>
<section aria-labelledby="stories"><h2 id="stories">Stories</h2>${storyList(base, stories, 'No stories on this page.')}
${next ? `<nav class="pager" aria-label="Pages"><a rel="next" href="${e(next)}">Older stories</a></nav>` : ''}</section>
<section aria-labelledby="recent"><h2 id="recent">Recent papers</h2><ul class="items">${papers
        .map((p) => paperLine(base, p))
        .join('')}</ul>
${olderPapers}</section>
${charts ? `<section aria-labelledby="activity"><h2 id="activity">Papers over time</h2>${charts}</section>` : ''}`,
  }
}

export function entityPage(
  base: string,
  entity: EntityListRow,
  papers: PaperRow[],
  claims: ClaimRow[],
  next: string | null,
  charts = '',
  feeds = '',
): { title: string; body: string } {
  const ids = Object.entries(entity.ids ?? {}).map(([kind, id]) => identifier(kind, String(id)))
  // A kind of id without a known record page is shown as plain text.
  const idLink = (i: (typeof ids)[number]) => (i.url ? `<a href="${e(i.url)}">${e(i.id)}</a>` : e(i.id))
  const identifiers = ids.length
    ? `<h2>Identifiers</h2><ul class="items">${ids.map((i) => `<li>${e(i.name)}: ${idLink(i)}</li>`).join('')}</ul>`
    : ''
  return {
    title: entity.name,
    body:
      `<h1>${e(entity.name)}</h1><p>A ${e(entity.type)} (key <code>${e(entity.key)}</code>` +
      `) that ${count(entity.paperCount, 'paper')} involve${entity.paperCount === 1 ? 's' : ''}.</p>
${feeds}${identifiers}
<section aria-labelledby="papers"><h2 id="papers">Papers</h2>${
        papers.length
          ? `<ul class="items">${papers.map((p) => paperLine(base, p)).join('')}</ul>`
          : '<p>No papers on this page.</p>'
      }
${next ? `<nav class="pager" aria-label="Pages"><a rel="next" href="${e(next)}">Older papers</a></nav>` : ''}</section>
${charts ? `<section aria-labelledby="charts"><h2 id="charts">In numbers</h2>${charts}</section>` : ''}
${claims.length ? `<section aria-labelledby="claims"><h2 id="claims">Claims</h2>${claimList(claims)}</section>` : ''}
<p><a href="${e(evidenceSitePath(entity.key, 'lifespan'))}">What the evidence says about ${e(entity.name)} and ` +
      `lifespan</a></p>
<p class="meta">Entity, links and claims compiled by ${OPERATOR_CREDIT}.</p>`,
  }
}

/** "Did you mean the gene CDKN2A or the intervention rapamycin?", each linked to its page; empty for none. */
function suggestion(entities: Pick<EntityListRow, 'type' | 'key' | 'name'>[]): string {
  if (entities.length === 0) return ''
  const links = entities.map((x) => `the ${e(x.type)} <a href="${e(entitySitePath(x.type, x.key))}">${e(x.name)}</a>`)
  const listed = links.length === 1 ? links[0] : `${links.slice(0, -1).join(', ')} or ${links[links.length - 1]}`
  return `<p class="suggest">Did you mean ${listed}?</p>`
}

export function searchPage(
  base: string,
  s: SearchQuery,
  hits: PaperListRow[],
  more: boolean,
  suggested: Pick<EntityListRow, 'type' | 'key' | 'name'>[] = [],
): { title: string; body: string } {
  const q = s.q
  const words = searchedWords(q)
  // Only the best 20 are shown: when there are more, say how to narrow the search or get them all.
  const moreNote = more
    ? '<p class="meta">Showing the best 20. Refine the words or the filters, or use the ' +
      '<a href="/api/v1/docs">Data API</a> for more.</p>'
    : ''
  const results =
    q === ''
      ? ''
      : hits.length === 0
        ? `<p>No papers match <strong>${e(q)}</strong>${Object.keys(s.values).length ? ' with these filters' : ''}.</p>`
        : `<h2>Papers matching “${e(q)}”</h2>` +
          `<ol class="items hits">${hits.map((p) => hitHtml(base, p, words)).join('')}</ol>
${moreNote}`
  return {
    title: q ? `Search: ${q}` : 'Search',
    body:
      `<h1>Search</h1><p class="meta">Words match titles and abstracts. Use "quoted phrases", OR, and -word to ` +
      `leave out.</p>${searchFormHtml(s)}${suggestion(suggested)}${filterLinksHtml(s)}${results}`,
  }
}
