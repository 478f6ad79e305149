/**
 * A brief written by the configured model: the operator's current `brief` prompt (so an edited
 * prompt is used at once) as the system message, the material as quoted, untrusted data
 * (src/pipeline/prompts/source-data.ts), and an answer checked statement by statement. A citation to
 * anything not in the material is dropped; a statement left without citations is dropped; a
 * statement whose words its cited items do not support (grounding.ts), or that rests on feed
 * articles alone without naming the feed, is dropped and logged, so a model that obeys an
 * instruction planted in a feed cannot have it stored as the brief's own statement; an answer with no
 * statement left at all is refused (and retried by the client, then given up). Notices (events,
 * calls, jobs) are not the model's to write about: the built-in composer sets them apart.
 */
import type { Db } from '../../db/client'
import type { BriefSection, BriefStatement } from '../../db/schema'
import { LlmClient, type LlmClientOptions, type Validation } from '../analysis/llm/client'
import { lookupTerm } from '../../lexicon/matcher'
import { log } from '../../log'
import { namesOf } from '../../lexicon/lexicon'
import { sourceMessage } from '../prompts/source-data'
import { currentPrompt } from '../prompts/service'
import { STUDY_TYPE_LABELS, TOPIC_INFO, type StudyType } from '../../taxonomy'
import type { Draft } from './compose'
import { paperStatement } from './compose'
import { grounding, isGrounded } from './grounding'
import type { Material } from './select'

export const BRIEF_FORMAT =
  '{"title": "...", "summary": [{"text": "one sentence", "citations": ["P1"]}], ' +
  '"sections": [{"heading": "...", "statements": [{"text": "one sentence", "citations": ["P2", "A1"]}]}]}'

const LIMITS = { title: 200, heading: 120, text: 1000, summary: 6, sections: 12, statements: 20, citations: 10 }

export type DroppedStatement = { text: string; citations: string[]; share: number; missing: string[] }
export type CheckedDraft = Draft & { dropped: number; ungrounded: DroppedStatement[] }
export type ModelDraft = CheckedDraft & { promptVersion: string; model: string }

/** The material as the model sees it: refs it must cite, and the operator's own words about each item. */
export function materialMessage(m: Material, context: Record<string, unknown>): string {
  return sourceMessage(
    [
      `Answer with one JSON object only, shaped like ${BRIEF_FORMAT}.`,
      'Every statement must cite, by ref, the papers (P...) or articles (A...) given here that support it; cite ' +
        'nothing else.',
      'Say only what the cited items say, in their words where you can, and name the journal or feed each statement ' +
        'rests on.',
    ],
    {
      ...context,
      papers: m.papers.map((p) => ({
        ref: p.ref,
        title: p.title,
        journal: p.journal,
        published: p.publishedDate ?? p.indexedDate,
        study_type: p.studyType,
        topic: p.topic,
        preprint: p.preprint,
        summary: paperStatement(p),
        findings: p.claims.map((c) => ({
          subject: c.subject,
          relation: c.relation,
          object: c.object,
          organism: c.organism,
          direction: c.direction,
          magnitude: c.magnitude,
        })),
      })),
      articles: m.articles.map((a) => ({
        ref: a.ref,
        title: a.title,
        source: a.source,
        published: a.publishedAt,
        summary: a.summary,
        key_points: a.keyPoints,
      })),
    },
  )
}

/** Every name a lexicon entry knows for these words (mice for Mus musculus, sirolimus for rapamycin). */
const namesFor = (term: string | null) => {
  const entry = term ? lookupTerm(term) : undefined
  return entry ? namesOf(entry) : []
}

/** What each item says, by ref, as the grounding check reads it: everything the model was given about it. */
export function itemTexts(m: Material): Map<string, string[]> {
  const texts = new Map<string, string[]>()
  for (const p of m.papers) {
    texts.set(p.ref, [
      p.title,
      p.journal,
      paperStatement(p),
      p.story?.headline ?? '',
      p.story?.dek ?? '',
      p.studyType ? (STUDY_TYPE_LABELS[p.studyType as StudyType] ?? p.studyType) : '',
      TOPIC_INFO.find((t) => t.slug === p.topic)?.name ?? '',
      p.preprint ? 'preprint' : '',
      ...p.claims.flatMap((c) => [
        c.subject,
        c.relation.replace(/_/g, ' '),
        c.object,
        c.organism ?? '',
        c.direction ?? '',
        c.magnitude ?? '',
        ...namesFor(c.subject),
        ...namesFor(c.object),
        ...namesFor(c.organism),
      ]),
    ])
  }
  for (const a of m.articles) texts.set(a.ref, [a.title, a.source, a.summary, ...a.keyPoints, ...a.tags])
  return texts
}

type Obj = Record<string, unknown>
class Refused extends Error {}
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x)

function text(x: unknown, where: string, max: number): string {
  if (typeof x !== 'string' || x.trim() === '') throw new Refused(`${where} must be a non-empty string`)
  return x.trim().replace(/\s+/g, ' ').slice(0, max)
}

/**
 * Checks an answer against the items it may cite (ref → their text; feed articles → their feed's
 * name): counts citations to anything else in `dropped`, and lists in `ungrounded` the statements
 * their cited items do not support or that state a feed's words without naming the feed.
 */
export function briefValidator(items: Map<string, string[]>, feeds: Map<string, string> = new Map()) {
  return (answer: unknown): Validation<CheckedDraft> => {
    let dropped = 0
    const ungrounded: DroppedStatement[] = []
    const statements = (x: unknown, where: string, max: number): BriefStatement[] => {
      if (!Array.isArray(x)) throw new Refused(`${where} must be an array`)
      return x.slice(0, max).flatMap((s, i) => {
        if (!isObj(s)) throw new Refused(`${where}[${i}] must be an object`)
        const cited = Array.isArray(s.citations) ? s.citations.filter((c): c is string => typeof c === 'string') : []
        const kept = [...new Set(cited.filter((c) => items.has(c)))].slice(0, LIMITS.citations)
        dropped += cited.length - cited.filter((c) => items.has(c)).length
        if (kept.length === 0) return []
        const statement = text(s.text, `${where}[${i}].text`, LIMITS.text)
        const check = grounding(
          statement,
          kept.flatMap((ref) => items.get(ref)!),
        )
        // Resting on feed articles alone, a statement reports what a feed says, so it must say which feed.
        const unattributed =
          kept.every((ref) => feeds.has(ref)) &&
          !kept.some((ref) => statement.toLowerCase().includes(feeds.get(ref)!.toLowerCase()))
        if (!isGrounded(check) || unattributed) {
          ungrounded.push({
            text: statement,
            citations: kept,
            share: Math.round(check.share * 100) / 100,
            missing: check.missing,
          })
          return []
        }
        return [{ text: statement, citations: kept }]
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
        return kept.length
          ? [{ heading: text(s.heading, `sections[${i}].heading`, LIMITS.heading), statements: kept }]
          : []
      })
      if (sections.length === 0) {
        throw new Refused(
          ungrounded.length
            ? 'no section has a statement that its cited papers or articles support'
            : 'no section has a statement that cites the papers or articles given',
        )
      }
      return { ok: true, value: { title, summary, sections, dropped, ungrounded } }
    } catch (error) {
      if (error instanceof Refused) return { ok: false, error: error.message }
      throw error
    }
  }
}

export async function writeWithModel(
  db: Db,
  options: LlmClientOptions,
  m: Material,
  context: Record<string, unknown>,
): Promise<ModelDraft> {
  const prompt = await currentPrompt(db, 'brief')
  const client = new LlmClient(options)
  const draft = await client.completeJson(
    'brief',
    prompt.body,
    materialMessage(m, context),
    briefValidator(itemTexts(m), new Map(m.articles.map((a) => [a.ref, a.source]))),
  )
  if (draft.ungrounded.length) {
    log.warn(
      { model: options.model, dropped_statements: draft.ungrounded.map((s) => ({ ...s, text: s.text.slice(0, 200) })) },
      'brief: statements the cited items do not support were dropped',
    )
  }
  return { ...draft, promptVersion: `brief-v${prompt.version}`, model: options.model }
}
