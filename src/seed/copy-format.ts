/**
 * PostgreSQL COPY text format: one line per row, tab-separated, \N for null, and backslash escapes
 * for backslash, tab, newline and carriage return. Arrays use the `{"a","b"}` literal with every
 * element quoted; jsonb columns take JSON text. PostgreSQL text cannot hold NUL, so it is an error.
 */
import type { PaperBundle, SeedClaim, SeedPaper, SeedPaperEntity, SeedStory } from './corpus'
import { isPublishable } from '../pipeline/stories/publish'

export const NULL = '\\N'

const SPECIAL = /[\\\t\n\r\0]/
const SPECIAL_ALL = /[\\\t\n\r\0]/g
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' }

function escapeChar(ch: string): string {
  const out = ESCAPES[ch]
  if (out === undefined) throw new Error('COPY: text values cannot contain NUL characters')
  return out
}

/** A text value as COPY reads it; most values need no escaping, so test before replacing. */
export function copyText(value: string | null): string {
  if (value === null) return NULL
  return SPECIAL.test(value) ? value.replace(SPECIAL_ALL, escapeChar) : value
}

/** A text[] value: `{"a","b \"c\""}`, then escaped for COPY like any other text. */
export function copyArray(values: readonly string[] | null): string {
  if (values === null) return NULL
  if (values.length === 0) return '{}'
  let literal = '{'
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!
    literal += (i > 0 ? ',"' : '"') + (/["\\]/.test(value) ? value.replace(/["\\]/g, '\\$&') : value) + '"'
  }
  return copyText(literal + '}')
}

export function copyJson(value: unknown): string {
  return value === null || value === undefined ? NULL : copyText(JSON.stringify(value))
}

export function copyNumber(value: number | null): string {
  if (value === null) return NULL
  if (!Number.isFinite(value)) throw new Error(`COPY: not a finite number: ${value}`)
  return String(value)
}

export function copyBool(value: boolean): string {
  return value ? 't' : 'f'
}

/** One COPY line (with its newline) from already-encoded fields. */
export function copyLine(fields: string[]): string {
  return fields.join('\t') + '\n'
}

export const PAPER_COLUMNS = [
  'id',
  'source',
  'doi',
  'title',
  'authors',
  'journal',
  'published_date',
  'indexed_date',
  'preprint',
  'publication_types',
  'url',
  'abstract',
  'abstract_license',
  'mesh_headings',
  'keywords',
  'chemicals',
  'relevance',
  'relevance_confidence',
  'newsworthiness',
  'study_type',
  'study_type_confidence',
  'topic',
  'topic_confidence',
  'promotional',
  'judgement_model',
  'judgement_prompt_version',
  'judged_at',
  'extracted_at',
  'created_at',
  'updated_at',
]
export const STORY_COLUMNS = [
  'paper_id',
  'headline',
  'dek',
  'body',
  'why_it_matters',
  'caveats',
  'support',
  'model',
  'published_at',
]
/** A held story's columns in the same order, its time written in the published_at slot, then the reasons. */
export const HELD_STORY_COLUMNS = [
  'paper_id',
  'headline',
  'dek',
  'body',
  'why_it_matters',
  'caveats',
  'support',
  'model',
  'written_at',
  'problems',
]
/** Why the demo's writer holds a story back: it scored it 1 or less (the demo draws its support; see corpus.ts). */
export const SEED_HELD_PROBLEMS = ['the demo writer scored this story 1 or less']
export const PAPER_ENTITY_COLUMNS = ['paper_id', 'entity_id', 'role', 'detail', 'indexed_date']
export const CLAIM_COLUMNS = [
  'paper_id',
  'subject_text',
  'subject_entity_id',
  'relation',
  'object_text',
  'object_entity_id',
  'organism',
  'context',
  'direction',
  'magnitude',
  'evidence',
  'confidence',
  'created_at',
]

export function paperLine(p: SeedPaper): string {
  const t = copyText
  const n = copyNumber
  return copyLine([
    t(p.id),
    t(p.source),
    t(p.doi),
    t(p.title),
    t(p.authors),
    t(p.journal),
    t(p.publishedDate),
    t(p.indexedDate),
    copyBool(p.preprint),
    copyArray(p.publicationTypes),
    t(p.url),
    t(p.abstract),
    t(p.abstractLicense),
    copyJson(p.meshHeadings),
    copyArray(p.keywords),
    copyJson(p.chemicals),
    n(p.relevance),
    n(p.relevanceConfidence),
    n(p.newsworthiness),
    t(p.studyType),
    n(p.studyTypeConfidence),
    t(p.topic),
    n(p.topicConfidence),
    n(p.promotional),
    t(p.judgementModel),
    t(p.judgementPromptVersion),
    t(p.judgedAt),
    t(p.extractedAt),
    t(p.createdAt),
    t(p.updatedAt),
  ])
}

export function storyLine(s: SeedStory): string {
  const t = copyText
  const fields = [
    t(s.paperId),
    t(s.headline),
    t(s.dek),
    t(s.body),
    t(s.whyItMatters),
    t(s.caveats),
    copyNumber(s.support),
    t(s.model),
    t(s.publishedAt),
  ]
  return copyLine(isPublishable(s.support) ? fields : [...fields, copyJson(SEED_HELD_PROBLEMS)])
}

/** Resolves an entity reference to its row id; the loader created every entity the corpus uses. */
export type EntityIds = (type: string, key: string) => number

export function paperEntityLine(paper: SeedPaper, e: SeedPaperEntity, ids: EntityIds): string {
  return copyLine([
    copyText(paper.id),
    String(ids(e.type, e.key)),
    copyText(e.role),
    copyJson(e.detail),
    copyText(paper.indexedDate),
  ])
}

export function claimLine(paper: SeedPaper, c: SeedClaim, ids: EntityIds): string {
  const t = copyText
  return copyLine([
    t(paper.id),
    t(c.subjectText),
    c.subjectEntity ? String(ids(c.subjectEntity.type, c.subjectEntity.key)) : NULL,
    t(c.relation),
    t(c.objectText),
    c.objectEntity ? String(ids(c.objectEntity.type, c.objectEntity.key)) : NULL,
    t(c.organism),
    copyJson(c.context),
    t(c.direction),
    t(c.magnitude),
    t(c.evidence),
    copyNumber(c.confidence),
    t(c.createdAt),
  ])
}

/** The tables' COPY text for a run of bundles, and how many rows each holds. */
export type EncodedChunk = {
  papers: string[]
  stories: string[]
  heldStories: string[]
  paperEntities: string[]
  claims: string[]
}

export function encodeBundle(b: PaperBundle, ids: EntityIds, into: EncodedChunk): void {
  into.papers.push(paperLine(b.paper))
  // A story its support puts at 1 or less is held back, as the analysis would (src/pipeline/stories/publish.ts).
  if (b.story) (isPublishable(b.story.support) ? into.stories : into.heldStories).push(storyLine(b.story))
  for (const e of b.entities) into.paperEntities.push(paperEntityLine(b.paper, e, ids))
  for (const c of b.claims) into.claims.push(claimLine(b.paper, c, ids))
}
