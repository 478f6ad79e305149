/**
 * What each task must answer, checked field by field. A validator either returns the whole value,
 * cleaned (numbers clamped, unknown keys dropped), or names the first problem; the client retries
 * on a problem, so no half-valid answer is ever stored.
 */
import { ENTITY_TYPES } from '../../../lexicon/lexicon'
import { STUDY_TYPES, TOPICS, type StudyType, type TopicSlug } from '../../../taxonomy'
import type { Validation } from './client'

type Obj = Record<string, unknown>
class Invalid extends Error {}

const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x)
function obj(x: unknown, where: string): Obj {
  if (!isObj(x)) throw new Invalid(`${where} must be an object`)
  return x
}
function num(x: unknown, where: string, min: number, max: number): number {
  if (typeof x !== 'number' || !Number.isFinite(x) || x < min || x > max)
    throw new Invalid(`${where} must be a number from ${min} to ${max}`)
  return x
}
function str(x: unknown, where: string, max = 5000): string {
  if (typeof x !== 'string' || x.trim() === '' || x.length > max)
    throw new Invalid(`${where} must be a non-empty string of at most ${max} characters`)
  return x.trim()
}
function optStr(x: unknown, where: string, max = 500): string | null {
  return x === undefined || x === null || x === '' ? null : str(x, where, max)
}
function oneOf<T extends string>(x: unknown, where: string, values: readonly T[]): T {
  if (typeof x !== 'string' || !values.includes(x as T))
    throw new Invalid(`${where} must be one of ${values.join(', ')}`)
  return x as T
}
function list(x: unknown, where: string, max: number): unknown[] {
  if (!Array.isArray(x) || x.length > max) throw new Invalid(`${where} must be an array of at most ${max} items`)
  return x
}

function validating<T>(read: (answer: unknown) => T) {
  return (answer: unknown): Validation<T> => {
    try {
      return { ok: true, value: read(answer) }
    } catch (error) {
      if (error instanceof Invalid) return { ok: false, error: error.message }
      throw error
    }
  }
}

export type JudgeAnswer = {
  relevance: number
  relevanceConfidence: number
  newsworthiness: number
  studyType: StudyType
  studyTypeConfidence: number
  topic: TopicSlug
  topicConfidence: number
  promotional: number
}

export const JUDGE_FORMAT =
  '{"relevance": [p0, p1, p2, p3], "relevance_confidence": 0-1, "newsworthiness": 0|1|2|3, "study_type": "...", ' +
  '"study_type_confidence": 0-1, "topic": "...", "topic_confidence": 0-1, "promotional": 0-1}'

export const validateJudge = validating((answer): JudgeAnswer => {
  const a = obj(answer, 'the answer')
  const p = list(a.relevance, 'relevance', 4).map((x, i) => num(x, `relevance[${i}]`, 0, 1))
  if (p.length !== 4) throw new Invalid('relevance must list four probabilities, for 0, 1, 2 and 3')
  const sum = p.reduce((s, x) => s + x, 0)
  if (Math.abs(sum - 1) > 0.05)
    throw new Invalid(`relevance probabilities must sum to 1 (they sum to ${sum.toFixed(2)})`)
  const round = (x: number) => Math.round(x * 100) / 100
  return {
    relevance: round(p.reduce((s, x, i) => s + i * x, 0) / sum),
    relevanceConfidence: num(a.relevance_confidence, 'relevance_confidence', 0, 1),
    newsworthiness: Math.round(num(a.newsworthiness, 'newsworthiness', 0, 3)),
    studyType: oneOf(a.study_type, 'study_type', STUDY_TYPES),
    studyTypeConfidence: num(a.study_type_confidence, 'study_type_confidence', 0, 1),
    topic: oneOf(a.topic, 'topic', TOPICS),
    topicConfidence: num(a.topic_confidence, 'topic_confidence', 0, 1),
    promotional: num(a.promotional, 'promotional', 0, 1),
  }
})

export type StoryAnswer = { headline: string; dek: string; body: string; whyItMatters: string; caveats: string }
export const STORY_FORMAT =
  '{"headline": "...", "dek": "...", "body": "...", "why_it_matters": "...", "caveats": "..."}'
export const validateStory = validating((answer): StoryAnswer => {
  const a = obj(answer, 'the answer')
  return {
    headline: str(a.headline, 'headline', 140),
    dek: str(a.dek, 'dek', 400),
    body: str(a.body, 'body', 6000),
    whyItMatters: str(a.why_it_matters, 'why_it_matters', 1500),
    caveats: str(a.caveats, 'caveats', 1500),
  }
})

export const SUPPORT_FORMAT = '{"support": 0|1|2|3, "problems": ["..."]}'
export const validateSupport = validating((answer): { support: number; problems: string[] } => {
  const a = obj(answer, 'the answer')
  return {
    support: Math.round(num(a.support, 'support', 0, 3)),
    problems: list(a.problems ?? [], 'problems', 50).map((x, i) => str(x, `problems[${i}]`, 500)),
  }
})

export const ROLES = ['studied', 'mechanism', 'outcome', 'model', 'context', 'target', 'mentioned'] as const
const DETAIL_KEYS = [
  'class',
  'form',
  'targets',
  'dose',
  'route',
  'duration',
  'strain',
  'sex',
  'age',
  'n',
  'system',
  'species',
  'role',
  'effect',
  'confidence',
  'kind',
  'direction',
  'magnitude',
  'major',
  'qualifiers',
  'chemical',
  'registry',
  'mention',
  'description',
]

export type EntityAnswer = { type: string; name: string; role: string; detail: Record<string, unknown> | null }
export const ENTITIES_FORMAT =
  '{"entities": [{"type": "...", "name": "...", "role": "...", "detail": {"mention": "exact words", ...}}]}'
export const validateEntities = validating((answer): EntityAnswer[] => {
  const a = obj(answer, 'the answer')
  return list(a.entities, 'entities', 100).map((x, i) => {
    const e = obj(x, `entities[${i}]`)
    const detail = e.detail === undefined || e.detail === null ? null : obj(e.detail, `entities[${i}].detail`)
    const kept =
      detail &&
      Object.fromEntries(Object.entries(detail).filter(([k, v]) => DETAIL_KEYS.includes(k) && v !== null && v !== ''))
    return {
      type: oneOf(e.type, `entities[${i}].type`, ENTITY_TYPES),
      name: str(e.name, `entities[${i}].name`, 200),
      role: oneOf(e.role, `entities[${i}].role`, ROLES),
      detail: kept && Object.keys(kept).length ? kept : null,
    }
  })
})

export type ClaimAnswer = {
  subject: string
  relation: string
  object: string
  organism: string | null
  direction: 'increase' | 'decrease' | 'no_change' | 'mixed' | null
  magnitude: string | null
  context: Record<string, unknown> | null
  evidence: string
  confidence: number | null
}
const CONTEXT_KEYS = [
  'condition',
  'form',
  'sex',
  'age',
  'tissue',
  'dose',
  'duration',
  'n',
  'subject_type',
  'object_type',
  'primary',
  'design',
  'evidence_level',
  'preprint',
]
export const CLAIMS_FORMAT =
  '{"claims": [{"subject": "...", "relation": "increases", "object": "...", "organism": "...", "direction": ' +
  '"increase", "magnitude": "...", "context": {...}, "evidence": "exact sentence", "confidence": 0-1}]}'

const squash = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase()

/** Claims must quote the abstract: evidence that is not in it is a made-up quote. */
export function claimsValidator(abstract: string) {
  const source = squash(abstract)
  return validating((answer): ClaimAnswer[] => {
    const a = obj(answer, 'the answer')
    return list(a.claims, 'claims', 50).map((x, i) => {
      const c = obj(x, `claims[${i}]`)
      const evidence = str(c.evidence, `claims[${i}].evidence`, 2000)
      if (!source.includes(squash(evidence)))
        throw new Invalid(`claims[${i}].evidence is not a quote from the abstract`)
      const relation = str(c.relation, `claims[${i}].relation`, 40)
      if (!/^[a-z][a-z_]{2,39}$/.test(relation))
        throw new Invalid(`claims[${i}].relation must be a snake_case verb such as increases`)
      const context = c.context === undefined || c.context === null ? null : obj(c.context, `claims[${i}].context`)
      const kept =
        context &&
        Object.fromEntries(
          Object.entries(context).filter(([k, v]) => CONTEXT_KEYS.includes(k) && v !== null && v !== ''),
        )
      return {
        subject: str(c.subject, `claims[${i}].subject`, 300),
        relation,
        object: str(c.object, `claims[${i}].object`, 300),
        organism: optStr(c.organism, `claims[${i}].organism`, 200),
        direction:
          c.direction === undefined || c.direction === null
            ? null
            : oneOf(c.direction, `claims[${i}].direction`, ['increase', 'decrease', 'no_change', 'mixed'] as const),
        magnitude: optStr(c.magnitude, `claims[${i}].magnitude`, 200),
        context: kept && Object.keys(kept).length ? kept : null,
        evidence,
        confidence:
          c.confidence === undefined || c.confidence === null
            ? null
            : num(c.confidence, `claims[${i}].confidence`, 0, 1),
      }
    })
  })
}

export type ArticleAnswer = { summary: string; keyPoints: string[]; tags: string[] }
export const ARTICLE_FORMAT = '{"summary": "...", "key_points": ["..."], "tags": ["..."]}'
export const validateArticle = validating((answer): ArticleAnswer => {
  const a = obj(answer, 'the answer')
  return {
    summary: str(a.summary, 'summary', 2000),
    keyPoints: list(a.key_points, 'key_points', 10).map((x, i) => str(x, `key_points[${i}]`, 500)),
    tags: list(a.tags, 'tags', 20).map((x, i) => str(x, `tags[${i}]`, 100)),
  }
})
