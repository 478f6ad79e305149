/**
 * A brief's citations (only the items its statements cite, in order of first citation) and its
 * plain-text rendering, stored as `content` for reading and mailing. A contradiction is cited like
 * a paper (C1, ...) and its citation carries the link, so no id is ever written into a sentence.
 */
import type { BriefCitation, BriefSection, BriefStatement } from '../../db/schema'
import { contradictionApiUrl } from '../../public-urls'
import { disagreementRef, type Draft } from './compose'
import type { Material } from './select'

export function citationsOf(draft: Draft, m: Material, baseUrl: string): BriefCitation[] {
  const order: string[] = []
  for (const s of [...draft.summary, ...draft.sections.flatMap((x) => x.statements)]) {
    for (const ref of s.citations) if (!order.includes(ref)) order.push(ref)
  }
  return order.map((ref): BriefCitation => {
    const paper = m.papers.find((p) => p.ref === ref)
    if (paper) {
      return {
        ref,
        type: 'paper',
        paper_id: paper.id,
        article_id: null,
        title: paper.title,
        source: paper.journal,
        date: paper.publishedDate ?? paper.indexedDate,
        url: paper.url,
      }
    }
    const d = m.disagreements.find((_, i) => disagreementRef(i) === ref)
    if (d) {
      return {
        ref,
        type: 'contradiction',
        paper_id: null,
        article_id: null,
        contradiction_id: d.groupId,
        title:
          `Whether ${d.subject} raises or lowers ${d.object}: ${d.up} papers report an increase, ${d.down} a ` +
          `decrease`,
        source: 'Geroscope contradictions',
        date: null,
        url: contradictionApiUrl(baseUrl, d.groupId),
      }
    }
    const a = [...m.articles, ...m.notices].find((x) => x.ref === ref)!
    return {
      ref,
      type: 'article',
      paper_id: a.paperId,
      article_id: a.id,
      title: a.title,
      source: a.source,
      date: a.publishedAt?.slice(0, 10) ?? null,
      url: a.link,
    }
  })
}

const line = (s: BriefStatement) => `- ${s.text} [${s.citations.join(', ')}]`

export function renderContent(
  title: string,
  scope: string,
  summary: BriefStatement[],
  sections: BriefSection[],
  citations: BriefCitation[],
): string {
  return [
    title,
    scope,
    '',
    'Summary',
    ...summary.map(line),
    ...sections.flatMap((s) => ['', s.heading, ...s.statements.map(line)]),
    '',
    'Sources',
    ...citations.map(
      (c) => `[${c.ref}] ${c.title}. ${c.source}${c.date ? `, ${c.date}` : ''}.${c.url ? ` ${c.url}` : ''}`,
    ),
  ].join('\n')
}
