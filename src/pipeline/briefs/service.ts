/**
 * Writing a brief: resolve the window, gather the material, have the model write it when one is
 * configured (else compose it with the built-in analyzer), keep only statements that cite the
 * material and that it supports, set notices (events, calls, jobs) apart, and store it with its
 * citations and a plain-text rendering.
 */
import type { Db } from '../../db/client'
import { AnalysisFailure } from '../analysis/analyzer'
import type { LlmClientOptions } from '../analysis/llm/client'
import { DomainError, invalidInput, nothingFound } from '../../domain-errors'
import { TOPIC_INFO } from '../../taxonomy'
import { composeBrief, noticeSection, NOTICES_HEADING, type Draft } from './compose'
import { writeWithModel } from './model-writer'
import { citationsOf, renderContent } from './render'
import { gatherMaterial, type Selection } from './select'
import { insertBrief, type BriefRow } from './store'

export const BUILTIN_MODEL = 'geroscope-builtin-1'
const MAX_WINDOW_DAYS = 366
const DAY = 86_400_000

export type BriefsContext = {
  db: Db
  baseUrl: string // PUBLIC_BASE_URL
  secret: string // APP_SECRET, signs cursors
  llm: LlmClientOptions | null // null: the built-in analyzer composes briefs
  now?: () => Date
}

export type BriefRequest = {
  kind: 'comprehensive' | 'tag_based'
  since?: string
  until?: string
  topics?: string[]
  entities?: string[]
  sourceTags?: string[]
  title?: string
  createdBy?: number | null
}

/** Default windows: the last 7 days for a comprehensive brief, the last 30 for a tag-based one, ending today (UTC). */
export function resolveWindow(r: BriefRequest, today: string): { since: string; until: string } {
  const until = r.until ?? (r.since && r.since > today ? r.since : today)
  const since =
    r.since ??
    new Date(Date.parse(`${until}T00:00:00Z`) - (r.kind === 'tag_based' ? 29 : 6) * DAY).toISOString().slice(0, 10)
  if (since > until) throw invalidInput(`since (${since}) must not be after until (${until})`)
  const days = (Date.parse(`${until}T00:00:00Z`) - Date.parse(`${since}T00:00:00Z`)) / DAY + 1
  if (days > MAX_WINDOW_DAYS)
    throw invalidInput(`the window from since to until may span at most ${MAX_WINDOW_DAYS} days (got ${days})`)
  return { since, until }
}

const topicName = (slug: string) => TOPIC_INFO.find((t) => t.slug === slug)?.name ?? slug

function defaultTitle(r: BriefRequest, since: string, until: string): string {
  const tags = [...(r.topics ?? []).map(topicName), ...(r.entities ?? []), ...(r.sourceTags ?? [])]
  const window = since === until ? since : `${since} to ${until}`
  return r.kind === 'tag_based'
    ? `Brief on ${tags.join(', ')}: ${window}`
    : `Brief: ${window}${tags.length ? ` (${tags.join(', ')})` : ''}`
}

export async function generateBrief(ctx: BriefsContext, r: BriefRequest): Promise<BriefRow> {
  const today = (ctx.now?.() ?? new Date()).toISOString().slice(0, 10)
  const { since, until } = resolveWindow(r, today)
  const selection: Selection = {
    since,
    until,
    topics: r.topics ?? [],
    entities: r.entities ?? [],
    sourceTags: r.sourceTags ?? [],
    tagBased: r.kind === 'tag_based',
  }
  if (selection.tagBased && !selection.topics.length && !selection.entities.length && !selection.sourceTags.length) {
    throw invalidInput('give at least one of topics, entities, source_tags')
  }
  const material = await gatherMaterial(ctx.db, selection)
  if (material.papers.length === 0 && material.articles.length === 0 && material.notices.length === 0) {
    throw nothingFound(
      `nothing to brief: no analysed papers or articles ${selection.tagBased ? 'carry these tags ' : ''}in ${since} ` +
        `to ${until}${selection.topics.length && !selection.tagBased ? ` on ${selection.topics.join(', ')}` : ''}`,
    )
  }
  const fallbackTitle = defaultTitle(r, since, until)
  let draft: Draft
  let model = BUILTIN_MODEL
  let promptVersion: string | null = null
  let dropped = 0
  let droppedStatements = 0
  if (ctx.llm && (material.papers.length || material.articles.length)) {
    try {
      const written = await writeWithModel(ctx.db, ctx.llm, material, {
        window: { since, until },
        topics: selection.topics,
        entities: selection.entities,
        source_tags: selection.sourceTags,
      })
      draft = {
        title: written.title,
        summary: written.summary,
        sections: [...written.sections, ...noticeSection(material)],
      }
      model = written.model
      promptVersion = written.promptVersion
      dropped = written.dropped
      droppedStatements = written.ungrounded.length
    } catch (error) {
      if (!(error instanceof AnalysisFailure)) throw error
      throw new DomainError(
        'unavailable',
        `the model did not write a usable brief (${error.message}); nothing was stored, try again`,
        30,
      )
    }
  } else {
    draft = composeBrief(material, fallbackTitle)
  }
  const title = r.title ?? draft.title
  // A model that cited nothing in its summary gets one from its sections' first statements (never a notice).
  const summary = draft.summary.length
    ? draft.summary
    : draft.sections
        .filter((s) => s.heading !== NOTICES_HEADING)
        .slice(0, 3)
        .map((s) => s.statements[0]!)
  const citations = citationsOf({ ...draft, summary }, material, ctx.baseUrl)
  const articlesConsidered = material.articles.length + material.notices.length
  const scope =
    `${since === until ? since : `${since} to ${until}`}; ${material.papers.length} papers ` +
    `and ${articlesConsidered} articles considered`
  const statements = summary.length + draft.sections.reduce((n, s) => n + s.statements.length, 0)
  return insertBrief(ctx.db, {
    kind: r.kind,
    title,
    content: renderContent(title, scope, summary, draft.sections, citations),
    summary,
    sections: draft.sections,
    citations,
    windowStart: since,
    windowEnd: until,
    filters: { topics: selection.topics, entities: selection.entities, source_tags: selection.sourceTags },
    tags: [...selection.topics, ...selection.entities, ...selection.sourceTags],
    paperIds: citations.flatMap((c) => (c.type === 'paper' && c.paper_id ? [c.paper_id] : [])),
    articleIds: citations.flatMap((c) => (c.article_id !== null ? [c.article_id] : [])),
    counts: {
      papers_in_window: material.papersInWindow,
      papers_considered: material.papers.length,
      articles_considered: articlesConsidered,
      notices: material.notices.length,
      statements,
      citations: citations.length,
      dropped_citations: dropped,
      dropped_statements: droppedStatements,
    },
    model,
    promptVersion,
    createdBy: r.createdBy ?? null,
  })
}
