/**
 * A brief written by the configured model: the operator's current `brief` prompt (so an edited
 * prompt is used at once) as the system message, the material as JSON, and an answer checked
 * statement by statement. A citation to anything not in the material is dropped; a statement left
 * without citations is dropped; an answer with no cited statement at all is refused (and retried by
 * the client, then given up).
 */
import type { Db } from '../db/client'
import type { BriefSection, BriefStatement } from '../db/schema'
import { LlmClient, type LlmClientOptions, type Validation } from '../analysis/llm/client'
import { currentPrompt } from '../prompts/service'
import type { Draft } from './compose'
import { paperStatement } from './compose'
import type { Material } from './select'

export const BRIEF_FORMAT = '{"title": "...", "summary": [{"text": "one sentence", "citations": ["P1"]}], '
  + '"sections": [{"heading": "...", "statements": [{"text": "one sentence", "citations": ["P2", "A1"]}]}]}'

const LIMITS = { title: 200, heading: 120, text: 1000, summary: 6, sections: 12, statements: 20, citations: 10 }

export type ModelDraft = Draft & { dropped: number; promptVersion: string; model: string }

/** The material as the model sees it: refs it must cite, and the operator's own words about each item. */
export function materialMessage(m: Material, context: Record<string, unknown>): string {
  return [
    `Answer with one JSON object only, shaped like ${BRIEF_FORMAT}.`,
    'Every statement must cite, by ref, the papers (P...) or articles (A...) given here that support it; cite nothing else.',
    JSON.stringify({
      ...context,
      papers: m.papers.map((p) => ({
        ref: p.ref, title: p.title, journal: p.journal, published: p.publishedDate ?? p.indexedDate, study_type: p.studyType,
        topic: p.topic, preprint: p.preprint, summary: paperStatement(p),
        findings: p.claims.map((c) => ({ subject: c.subject, relation: c.relation, object: c.object, organism: c.organism, direction: c.direction, magnitude: c.magnitude })),
      })),
      articles: m.articles.map((a) => ({ ref: a.ref, title: a.title, source: a.source, published: a.publishedAt, summary: a.summary, key_points: a.keyPoints })),
    }),
  ].join('\n\n')
}

type Obj = Record<string, unknown>
class Refused extends Error {}
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x)

function text(x: unknown, where: string, max: number): string {
  if (typeof x !== 'string' || x.trim() === '') throw new Refused(`${where} must be a non-empty string`)
  return x.trim().replace(/\s+/g, ' ').slice(0, max)
}

/** Checks an answer against the refs it may cite; counts what it drops in `dropped`. */
export function briefValidator(refs: Set<string>) {
  return (answer: unknown): Validation<Draft & { dropped: number }> => {
    let dropped = 0
    const statements = (x: unknown, where: string, max: number): BriefStatement[] => {
      if (!Array.isArray(x)) throw new Refused(`${where} must be an array`)
      return x.slice(0, max).flatMap((s, i) => {
        if (!isObj(s)) throw new Refused(`${where}[${i}] must be an object`)
        const cited = Array.isArray(s.citations) ? s.citations.filter((c): c is string => typeof c === 'string') : []
        const kept = [...new Set(cited.filter((c) => refs.has(c)))].slice(0, LIMITS.citations)
        dropped += cited.length - cited.filter((c) => refs.has(c)).length
        return kept.length > 0 ? [{ text: text(s.text, `${where}[${i}].text`, LIMITS.text), citations: kept }] : []
      })
    }
    try {
      if (!isObj(answer)) throw new Refused('the answer must be an object')
      const title = text(answer.title, 'title', LIMITS.title)
      const summary = statements(answer.summary ?? [], 'summary', LIMITS.summary)
      if (!Array.isArray(answer.sections)) throw new Refused('sections must be an array')
      const sections: BriefSection[] = answer.sections.slice(0, LIMITS.sections).flatMap((s, i) => {
        if (!isObj(s)) throw new Refused(`sections[${i}] must be an object`)
        const kept = statements(s.statements, `sections[${i}].statements`, LIMITS.statements)
        return kept.length ? [{ heading: text(s.heading, `sections[${i}].heading`, LIMITS.heading), statements: kept }] : []
      })
      if (sections.length === 0) throw new Refused('no section has a statement that cites the papers or articles given')
      return { ok: true, value: { title, summary, sections, dropped } }
    } catch (error) {
      if (error instanceof Refused) return { ok: false, error: error.message }
      throw error
    }
  }
}

export async function writeWithModel(db: Db, options: LlmClientOptions, m: Material, context: Record<string, unknown>): Promise<ModelDraft> {
  const prompt = await currentPrompt(db, 'brief')
  const client = new LlmClient(options)
  const refs = new Set([...m.papers.map((p) => p.ref), ...m.articles.map((a) => a.ref)])
  const draft = await client.completeJson('brief', prompt.body, materialMessage(m, context), briefValidator(refs))
  return { ...draft, promptVersion: `brief-v${prompt.version}`, model: options.model }
}
