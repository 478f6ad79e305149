/**
 * The built-in brief: deterministic prose from the material (select.ts), grouped by topic and, within
 * a topic, by finding, every statement citing the papers or articles it comes from. Wording uses the
 * operator's own material (stories, extracted claims, feed analyses), never abstract text, so a
 * brief can be shared whatever an abstract's licence.
 */
import type { BriefSection, BriefStatement } from '../db/schema'
import { STUDY_TYPE_LABELS, TOPIC_INFO, type StudyType } from '../taxonomy'
import type { ArticleItem, ClaimFact, Material, PaperItem } from './select'

export type Draft = { title: string; summary: BriefStatement[]; sections: BriefSection[] }

const MAX_PER_TOPIC = 8
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
const sentence = (s: string) => (/[.!?]$/.test(s.trim()) ? s.trim() : `${s.trim()}.`)
const topicName = (slug: string | null) => TOPIC_INFO.find((t) => t.slug === slug)?.name ?? 'Other'

/** "raises", "lowers", "extends", ... : what a claim says the subject does to the object. */
function verb(c: ClaimFact): string {
  switch (c.relation) {
    case 'increases': return 'raises'
    case 'decreases': return 'lowers'
    case 'extends_lifespan': return 'extends'
    case 'improves': return 'improves'
    case 'impairs': return 'impairs'
    case 'protects_against': return 'protects against'
    case 'reduces_risk_of': return 'lowers the risk of'
    case 'associated_with':
      return c.direction === 'increase' ? 'is linked to higher' : c.direction === 'decrease' ? 'is linked to lower'
        : c.direction === 'no_change' ? 'shows no link with' : 'has mixed links with'
    case 'no_effect_on': return 'does not change'
    default: return c.relation.replace(/_/g, ' ')
  }
}

const where = (c: ClaimFact) => (c.organism ? ` in ${c.organism}` : '')
const claimText = (c: ClaimFact) => `${c.subject} ${verb(c)} ${c.object}${where(c)}${c.magnitude ? ` (${c.magnitude})` : ''}`
const studyLabel = (p: PaperItem) => (p.studyType ? STUDY_TYPE_LABELS[p.studyType as StudyType] ?? p.studyType : 'A paper')

/** One paper in one sentence: its story's standfirst, else its main claim, else its title. */
export function paperStatement(p: PaperItem): string {
  if (p.story) return sentence(p.story.dek)
  const main = p.claims[0]
  if (main) return sentence(`${studyLabel(p)}${p.preprint ? ' (preprint)' : ''}: ${claimText(main)}`)
  return sentence(`${studyLabel(p)} in ${p.journal}: "${p.title.replace(/\.$/, '')}"`)
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
      const organisms = [...new Set(same.map((x) => x.claims[0]?.organism).filter((o) => o))]
      statements.push({
        text: sentence(`${same.length} papers report that ${c.subject} ${verb(c)} ${c.object}${organisms.length ? ` (in ${organisms.join(', ')})` : ''}`),
        citations: same.map((x) => x.ref),
      })
    } else {
      statements.push({ text: paperStatement(p), citations: [p.ref] })
    }
    for (const x of same) done.add(x.ref)
  }
  return { heading: topicName(topic), statements }
}

function articleStatement(a: ArticleItem, papers: PaperItem[]): BriefStatement {
  const first = a.summary.split(/(?<=[.!?])\s+/)[0] ?? a.summary
  const linked = a.paperId ? papers.find((p) => p.id === a.paperId) : undefined
  return { text: sentence(`${a.source}: ${first}`), citations: linked ? [a.ref, linked.ref] : [a.ref] }
}

export function composeBrief(m: Material, title: string): Draft {
  const byTopic = new Map<string | null, PaperItem[]>()
  for (const p of m.papers) byTopic.set(p.topic, [...(byTopic.get(p.topic) ?? []), p])
  const topics = [...byTopic].sort((a, b) => b[1].length - a[1].length || String(a[0]).localeCompare(String(b[0])))
  const sections = topics.map(([topic, items]) => topicSection(topic, items))
  if (m.disagreements.length) {
    sections.push({
      heading: 'Where papers disagree',
      statements: m.disagreements.map((d) => {
        const paper = m.papers.find((p) => p.id === d.paperId)!
        return {
          text: sentence(`Papers disagree on whether ${d.subject} raises or lowers ${d.object}: ${d.up} report an increase and ${d.down} a decrease under comparable conditions (contradiction ${d.groupId}); the paper cited here studies the same question`),
          citations: [paper.ref],
        }
      }),
    })
  }
  if (m.articles.length) sections.push({ heading: 'From the feeds', statements: m.articles.map((a) => articleStatement(a, m.papers)) })
  const highlights = [...m.papers].sort((a, b) => b.newsworthiness - a.newsworthiness || b.relevance - a.relevance).slice(0, 3)
  const summary = highlights.length
    ? highlights.map((p) => ({ text: paperStatement(p), citations: [p.ref] }))
    : m.articles.slice(0, 3).map((a) => articleStatement(a, m.papers))
  return { title, summary, sections: sections.filter((s) => s.statements.length > 0) }
}
