/** Feed articles (title and summary only) through the same lexicon and claim patterns as abstracts. */
import type { ArticleInput, ArticleResult } from '../analyzer'
import { extractClaims } from './claims'
import { findMentions } from '../../../lexicon/matcher'
import { splitSentences } from './sentences'

const TAG_TYPES = new Set([
  'intervention',
  'gene',
  'pathway',
  'hallmark',
  'organism',
  'disease',
  'phenotype',
  'biomarker',
])

export function analyzeArticleBuiltin(article: ArticleInput): ArticleResult {
  const text = `${article.title}. ${article.summary ?? ''}`.trim()
  const sentences = splitSentences(text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' '))
  const mentions = findMentions(text)
  const entities = new Map<string, { type: string; key: string; name: string }>()
  for (const m of mentions)
    if (TAG_TYPES.has(m.entry.type))
      entities.set(`${m.entry.type}:${m.entry.key}`, { type: m.entry.type, key: m.entry.key, name: m.entry.name })
  const claims = extractClaims(
    sentences.slice(1),
    { organism: null, design: null, evidenceLevel: null, preprint: false, review: false },
    5,
  )
  const summary =
    sentences
      .slice(1, 3)
      .map((s) => s.text)
      .join(' ') || article.title
  return {
    summary,
    keyPoints: claims.map((c) => `${c.subject.text} ${c.relation.replace(/_/g, ' ')} ${c.object.text}`).slice(0, 5),
    tags: [...new Set([...entities.values()].map((e) => e.name))].slice(0, 8),
    entities: [...entities.values()],
    claims: claims.map((c) => ({
      subject: c.subject.text,
      relation: c.relation,
      object: c.object.text,
      direction: c.direction,
      magnitude: c.magnitude,
    })),
  }
}
