/**
 * The built-in brief: deterministic prose from the material (select.ts), grouped by topic and, within
 * a topic, by finding, every statement citing the papers or articles it comes from and naming its
 * source (the journal or the feed) in its text. Wording uses the operator's own material (stories,
 * extracted claims, feed analyses), never abstract text, so a brief can be shared whatever an
 * abstract's licence. Feed text is never stated as ours: it is quoted and attributed to its feed, and
 * notices (events, calls, jobs, press notices: item-kind.ts) are set apart from the findings. Ids are
 * never written into prose: a contradiction is cited (C1, ...) like a paper, and its citation links it.
 */
import type { BriefSection, BriefStatement } from '../../db/schema'
import type { StudyType } from '../../taxonomy'
import { TOPIC_INFO } from '../../taxonomy'
import { NOTICE_LABEL } from './item-kind'
import type { ArticleItem, ClaimFact, Disagreement, Material, PaperItem } from './select'

export type Draft = { title: string; summary: BriefStatement[]; sections: BriefSection[] }

const MAX_PER_TOPIC = 8
const MAX_QUOTE = 240
export const NOTICES_HEADING = 'Notices from the feeds (not research)'
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
const sentence = (s: string) => (/[.!?…]["”’)]?$/.test(s.trim()) ? s.trim() : `${s.trim()}.`)
const unstop = (s: string) => s.trim().replace(/[.;:,]+$/, '')
const topicName = (slug: string | null) => TOPIC_INFO.find((t) => t.slug === slug)?.name ?? 'Other'
const NUMBER_WORDS = ['No', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten']
const count = (n: number) => NUMBER_WORDS[n] ?? String(n)
const article = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`
const list = (xs: string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`)

/**
 * Source text as a quotation: its own double quotes made single, cut at a word near MAX_QUOTE
 * characters, in typographic quotes, so nothing a feed writes can read as the brief's own words.
 */
export function quote(text: string): string {
  let t = text.replace(/\s+/g, ' ').trim()
  if (/^["“][^"“”]*["”]$/.test(t)) t = t.slice(1, -1) // a title that is itself one quotation
  t = t.replace(/["“”]/g, "'")
  if (t.length > MAX_QUOTE) t = `${t.slice(0, MAX_QUOTE).replace(/\s+\S*$/, '')}…`
  return `“${t}”`
}

/** "raises", "lowers", "extends", ... : what a claim says the subject does to the object. */
function verb(c: ClaimFact): string {
  switch (c.relation) {
    case 'increases':
      return 'raises'
    case 'decreases':
      return 'lowers'
    case 'extends_lifespan':
      return 'extends'
    case 'improves':
      return 'improves'
    case 'impairs':
      return 'impairs'
    case 'protects_against':
      return 'protects against'
    case 'reduces_risk_of':
      return 'lowers the risk of'
    case 'associated_with':
      return c.direction === 'increase'
        ? 'is linked to higher'
        : c.direction === 'decrease'
          ? 'is linked to lower'
          : c.direction === 'no_change'
            ? 'shows no link with'
            : 'has mixed links with'
    case 'no_effect_on':
      return 'does not change'
    default:
      return c.relation.replace(/_/g, ' ')
  }
}

/** Organisms as a reader names them ("in mice", not "in Mus musculus"); others as the claim gives them. */
const COMMON_NAMES: Record<string, string> = {
  'homo sapiens': 'people',
  humans: 'people',
  human: 'people',
  'mus musculus': 'mice',
  'rattus norvegicus': 'rats',
  'danio rerio': 'zebrafish',
  'drosophila melanogaster': 'fruit flies',
  'caenorhabditis elegans': 'C. elegans worms',
  'saccharomyces cerevisiae': 'yeast',
  'nothobranchius furzeri': 'killifish',
  'heterocephalus glaber': 'naked mole-rats',
  'mesocricetus auratus': 'hamsters',
  'macaca mulatta': 'rhesus monkeys',
  'canis lupus familiaris': 'dogs',
  'canis familiaris': 'dogs',
}
export const organismName = (o: string) => COMMON_NAMES[o.trim().toLowerCase()] ?? o
const where = (c: ClaimFact) => (c.organism ? ` in ${organismName(c.organism)}` : '')
const claimText = (c: ClaimFact) =>
  `${c.subject} ${verb(c)} ${c.object}${where(c)}${c.magnitude ? ` (${c.magnitude})` : ''}`

/** What kind of paper it is, as a noun a sentence can carry ("an animal study", "a review"). */
const DESIGN: Record<StudyType, string> = {
  human_trial: 'clinical trial',
  human_observational: 'observational study',
  animal: 'animal study',
  invertebrate: 'invertebrate study',
  cells: 'cell study',
  computational: 'computational study',
  review: 'review',
  other: 'paper',
}
const design = (p: PaperItem) => `${p.preprint ? 'preprint ' : ''}${DESIGN[p.studyType as StudyType] ?? 'paper'}`
/** "an animal study published in Aging Cell", "a preprint invertebrate study posted on bioRxiv" */
const paperAndSource = (p: PaperItem) =>
  `${article(design(p))} ${p.preprint ? 'posted on' : 'published in'} ${p.journal}`

/** A review concludes; other papers report ("finds" after a journal called ... Reports, never "Reports reports"). */
const says = (p: PaperItem) =>
  p.studyType === 'review' ? 'concludes' : /reports$/i.test(p.journal) ? 'finds' : 'reports'

/** One paper in one sentence that names its source: its story's standfirst, else its main claim, else its title. */
export function paperStatement(p: PaperItem): string {
  if (p.story) return sentence(`${unstop(p.story.dek)} (${p.journal}${p.preprint ? ', preprint' : ''})`)
  const main = p.claims[0]
  if (main) return sentence(`${cap(paperAndSource(p))} ${says(p)} that ${claimText(main)}`)
  return sentence(
    `${p.journal} ${p.preprint ? 'posted' : 'published'} ${article(design(p))}, ${quote(unstop(p.title))}`,
  )
}

/** Papers whose main claims say the same thing (subject, object, direction) share one statement. */
function findingKey(p: PaperItem): string | null {
  const c = p.claims[0]
  if (!c?.subjectKey || !c.objectKey || (c.direction !== 'increase' && c.direction !== 'decrease')) return null
  return `${c.subjectKey}|${c.objectKey}|${c.direction}`
}

function topicSection(topic: string | null, items: PaperItem[]): BriefSection {
  const statements: BriefStatement[] = []
  const byFinding = new Map<string, PaperItem[]>()
  for (const p of items) {
    const key = findingKey(p)
    if (key) byFinding.set(key, [...(byFinding.get(key) ?? []), p])
  }
  const done = new Set<string>()
  for (const p of items) {
    if (statements.length >= MAX_PER_TOPIC) break
    if (done.has(p.ref)) continue
    const key = findingKey(p)
    const same = key ? byFinding.get(key)! : [p]
    if (same.length > 1) {
      const c = p.claims[0]!
      const organisms = [
        ...new Set(
          same
            .map((x) => x.claims[0]?.organism)
            .filter((o): o is string => !!o)
            .map(organismName),
        ),
      ]
      const journals = [...new Set(same.map((x) => x.journal))]
      statements.push({
        text: sentence(
          `${count(same.length)} papers ${journals.length === 1 ? `in ${journals[0]}` : `(in ${list(journals)})`} ` +
            `report that ${c.subject} ${verb(c)} ${c.object}${organisms.length ? ` in ${list(organisms)}` : ''}`,
        ),
        citations: same.map((x) => x.ref),
      })
    } else {
      statements.push({ text: paperStatement(p), citations: [p.ref] })
    }
    for (const x of same) done.add(x.ref)
  }
  return { heading: topicName(topic), statements }
}

/**
 * The first sentence of a feed item's summary when it says something of its own: not the title
 * again, not a bare question, a byline or a citation line ("Volume 105, Issue S2, Page e1-e7").
 */
function saying(a: ArticleItem): string | null {
  const first =
    a.summary
      .replace(/\s+/g, ' ')
      .trim()
      .split(/(?<=[.!?])\s+/)[0] ?? ''
  const words = first.split(' ').length
  if (
    words < 4 ||
    /\?$/.test(first) ||
    /^(?:by|author|posted by)\b/i.test(first) ||
    /\b(?:volume|vol\.|issue|page|pp\.)\s*[\dSe]/i.test(first)
  )
    return null
  const bare = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim()
  return bare(first) === bare(a.title) ? null : first
}

/** A feed article: its title (and what it says, when it says something) quoted and attributed; cited with its paper. */
export function articleStatement(a: ArticleItem, papers: PaperItem[]): BriefStatement {
  const says = saying(a)
  const linked = a.paperId ? papers.find((p) => p.id === a.paperId) : undefined
  return {
    text: sentence(`${a.source} posted ${quote(a.title)}${says ? `, which says: ${quote(says)}` : ''}`),
    citations: linked ? [a.ref, linked.ref] : [a.ref],
  }
}

/** A notice (an event, a call, a job, a press notice): what kind it is, its feed, and its title quoted. */
export function noticeStatement(a: ArticleItem): BriefStatement {
  const label = a.kind === 'research' ? 'an item' : NOTICE_LABEL[a.kind]
  return { text: sentence(`${a.source} posted ${label}: ${quote(a.title)}`), citations: [a.ref] }
}

/** Disagreements are cited as C1, C2, ... after the papers and articles (citationsOf links each to its group). */
export const disagreementRef = (i: number) => `C${i + 1}`

function disagreementStatement(d: Disagreement, i: number, papers: PaperItem[]): BriefStatement {
  const paper = papers.find((p) => p.id === d.paperId)!
  return {
    text: sentence(
      `Papers disagree on whether ${d.subject} raises or lowers ${d.object}: ${d.up} report an increase ` +
        `and ${d.down} a decrease under comparable conditions, among them ${paperAndSource(paper)}`,
    ),
    citations: [paper.ref, disagreementRef(i)],
  }
}

export function noticeSection(m: Material): BriefSection[] {
  return m.notices.length ? [{ heading: NOTICES_HEADING, statements: m.notices.map(noticeStatement) }] : []
}

export function composeBrief(m: Material, title: string): Draft {
  const byTopic = new Map<string | null, PaperItem[]>()
  for (const p of m.papers) byTopic.set(p.topic, [...(byTopic.get(p.topic) ?? []), p])
  const topics = [...byTopic].sort((a, b) => b[1].length - a[1].length || String(a[0]).localeCompare(String(b[0])))
  const sections = topics.map(([topic, items]) => topicSection(topic, items))
  if (m.disagreements.length) {
    sections.push({
      heading: 'Where papers disagree',
      statements: m.disagreements.map((d, i) => disagreementStatement(d, i, m.papers)),
    })
  }
  if (m.articles.length)
    sections.push({ heading: 'From the feeds', statements: m.articles.map((a) => articleStatement(a, m.papers)) })
  sections.push(...noticeSection(m))
  const highlights = [...m.papers]
    .sort((a, b) => b.newsworthiness - a.newsworthiness || b.relevance - a.relevance)
    .slice(0, 3)
  const summary = highlights.length
    ? highlights.map((p) => ({ text: paperStatement(p), citations: [p.ref] }))
    : m.articles.slice(0, 3).map((a) => articleStatement(a, m.papers))
  return { title, summary, sections: sections.filter((s) => s.statements.length > 0) }
}
