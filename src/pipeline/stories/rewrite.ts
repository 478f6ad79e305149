/**
 * A story rewritten from the paper's current judgement: after a re-analysis changed the judgement without writing a
 * story of its own, or after an editor corrected the judgement (study type, topic...), so the story never keeps the
 * design or organism words of a judgement that no longer holds. The built-in writer does it (offline, deterministic),
 * from the paper's record and its stored judgement; the support check then publishes or holds it (publish.ts).
 */
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { heldStories, papers, stories } from '../../db/schema'
import { BUILTIN_MODEL, deservesStory, storyFor } from '../analysis/builtin'
import type { Judgement, PaperInput } from '../analysis/types'
import { placeStory, type Placement } from './publish'

export type RewriteResult =
  | { status: 'published' | 'held'; support: number; problems: string[] }
  | { status: 'none'; reason: 'unknown paper' | 'not judged' | 'no story due' | 'no abstract' }

/**
 * Rewrites the paper's story (published or held) from its current judgement, or writes one when the judgement makes
 * it due (newsworthy ageing research with an abstract); papers with neither are left alone. Runs in the caller's
 * transaction when given one (`db` may be a transaction).
 */
export async function rewriteStory(db: Db, paperId: string, now = new Date()): Promise<RewriteResult> {
  const [row] = await db
    .select({
      id: papers.id,
      title: papers.title,
      abstract: papers.abstract,
      journal: papers.journal,
      preprint: papers.preprint,
      publicationTypes: papers.publicationTypes,
      meshHeadings: papers.meshHeadings,
      keywords: papers.keywords,
      chemicals: papers.chemicals,
      relevance: papers.relevance,
      relevanceConfidence: papers.relevanceConfidence,
      newsworthiness: papers.newsworthiness,
      studyType: papers.studyType,
      studyTypeConfidence: papers.studyTypeConfidence,
      topic: papers.topic,
      topicConfidence: papers.topicConfidence,
      promotional: papers.promotional,
      hasStory: sql<boolean>`exists (select 1 from ${stories} where ${stories.paperId} = ${papers.id})
      or exists (select 1 from ${heldStories} where ${heldStories.paperId} = ${papers.id})`,
    })
    .from(papers)
    .where(eq(papers.id, paperId))
  if (!row) return { status: 'none', reason: 'unknown paper' }
  if (row.studyType === null || row.topic === null || row.relevance === null || row.newsworthiness === null)
    return { status: 'none', reason: 'not judged' }
  const paper: PaperInput = {
    id: row.id,
    title: row.title,
    abstract: row.abstract,
    journal: row.journal,
    preprint: row.preprint,
    publicationTypes: row.publicationTypes,
    meshHeadings: row.meshHeadings,
    keywords: row.keywords,
    chemicals: row.chemicals,
  }
  const judgement: Judgement = {
    relevance: row.relevance,
    relevanceConfidence: row.relevanceConfidence ?? 0,
    newsworthiness: row.newsworthiness,
    studyType: row.studyType as Judgement['studyType'],
    studyTypeConfidence: row.studyTypeConfidence ?? 0,
    topic: row.topic as Judgement['topic'],
    topicConfidence: row.topicConfidence ?? 0,
    promotional: row.promotional ?? 0,
  }
  if (!row.hasStory && !deservesStory(paper, judgement)) return { status: 'none', reason: 'no story due' }
  const story = storyFor(paper, judgement)
  if (!story) return { status: 'none', reason: 'no abstract' }
  const placed: Placement = await placeStory(db, paperId, { ...story, model: BUILTIN_MODEL }, now)
  return { status: placed, support: story.support, problems: story.problems }
}
