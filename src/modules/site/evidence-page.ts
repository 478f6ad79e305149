/**
 * The site's page for one question (/evidence?subject=…&object=…): what the claims say, by organism and direction.
 * Everything shown is escaped.
 */
import type { EvidenceEntity, EvidenceGroupRow } from '../../resources/evidence/queries'
import { paperSiteUrl } from '../../public-urls'
import { STUDY_TYPE_LABELS, type StudyType } from '../../taxonomy'
import { entitySitePath } from './links'
import { escapeXml as e } from './render'

const count = (n: number, noun: string) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`
const label = (studyType: string | null) =>
  studyType ? (STUDY_TYPE_LABELS[studyType as StudyType] ?? studyType) : 'Not yet judged'

const DIRECTION_WORDS: Record<string, string> = {
  increase: 'an increase',
  decrease: 'a decrease',
  no_change: 'no change',
  mixed: 'mixed results',
}

/** The site path of a question's page. */
export const evidenceSitePath = (subject: string, object: string) =>
  `/evidence?${new URLSearchParams({ subject, object })}`

/** One paper of a group: its title linked, then its kind of study (the group's order), journal and date. */
function paperLine(base: string, p: EvidenceGroupRow['papers'][number]): string {
  const published = p.publishedDate ? ` · ${e(p.publishedDate)}` : ''
  return (
    `<li><a href="${e(paperSiteUrl(base, p.id))}">${e(p.title)}</a> ` +
    `<span class="meta">${e(label(p.studyType))} · ${e(p.journal)}${published}</span></li>`
  )
}

function groupHtml(base: string, g: EvidenceGroupRow, i: number): string {
  const where = g.organism ? `In ${e(g.organism)}` : 'Organism not stated'
  const what = g.direction ? (DIRECTION_WORDS[g.direction] ?? e(g.direction)) : 'direction not stated'
  const kinds = g.studyTypes.length ? ` · ${g.studyTypes.map((s) => e(label(s).toLowerCase())).join(', ')}` : ''
  // A group lists at most PAPERS_PER_GROUP papers: say so when it holds more.
  const strongest =
    g.paperCount > g.papers.length
      ? `<p class="meta">The strongest ${g.papers.length} of ${count(g.paperCount, 'paper')}.</p>`
      : ''
  return `<section aria-labelledby="g${i}"><h2 id="g${i}">${where}: ${e(what)}</h2>
<p class="meta">${count(g.claimCount, 'claim')} from ${count(g.paperCount, 'paper')}${kinds}</p>
<ol class="items">${g.papers.map((p) => paperLine(base, p)).join('')}</ol>
${strongest}</section>`
}

export function evidencePage(
  base: string,
  q: { subject: string; object: string; entity: EvidenceEntity },
  groups: EvidenceGroupRow[],
  chart = '',
  feeds = '',
): { title: string; body: string } {
  const title = `What the evidence says about ${q.entity.name} and ${q.object}`
  const total = groups.reduce((n, g) => n + g.claimCount, 0)
  const api = `/api/v1/evidence?${new URLSearchParams({ subject: q.subject, object: q.object })}`
  const summary = total
    ? `${count(total, 'claim')} extracted from papers, grouped by the organism studied and the direction of ` +
      'the effect.'
    : `No claims about ${e(q.entity.name)} and ${e(q.object)} yet.`
  return {
    title,
    body:
      `<h1>What the evidence says about <a href="${e(entitySitePath(q.entity.type, q.entity.key))}"` +
      `>${e(q.entity.name)}</a> and ${e(q.object)}</h1>
<p>${summary}</p>
${feeds}${chart}
${groups.map((g, i) => groupHtml(base, g, i)).join('\n')}
<p class="meta">Papers in each group are listed strongest evidence first: human trials, then observational studies ` +
      `in people, animal, invertebrate, cell and computational studies, then reviews; within a kind, the most ` +
      `relevant to aging, then the newest.
Claims are extracted by Geroscope from the papers' abstracts and may be wrong: read the paper. As data: ` +
      `<code>${e(api)}</code> (Data API key required).</p>`,
  }
}
