/** Reading the stories the support check held back, for operators: newest first, with their paper's judgement. */
import { desc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { heldStories, papers } from '../../db/schema'

export type HeldStoryRow = {
  paperId: string
  title: string
  studyType: string | null
  headline: string
  dek: string
  body: string
  whyItMatters: string
  caveats: string
  support: number
  problems: string[]
  model: string
  writtenAt: Date
}

export async function listHeldStories(db: Db, limit: number): Promise<{ rows: HeldStoryRow[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    db
      .select({
        paperId: heldStories.paperId,
        title: papers.title,
        studyType: papers.studyType,
        headline: heldStories.headline,
        dek: heldStories.dek,
        body: heldStories.body,
        whyItMatters: heldStories.whyItMatters,
        caveats: heldStories.caveats,
        support: heldStories.support,
        problems: heldStories.problems,
        model: heldStories.model,
        writtenAt: heldStories.writtenAt,
      })
      .from(heldStories)
      .innerJoin(papers, eq(papers.id, heldStories.paperId))
      .orderBy(desc(heldStories.writtenAt), heldStories.paperId)
      .limit(limit),
    db.select({ n: sql<number>`count(*)::int` }).from(heldStories),
  ])
  return { rows, total: count.n }
}
