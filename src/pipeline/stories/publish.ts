/**
 * Where a written story goes: published (`stories`, read by /api/v1, feeds, the site, exports and search) when the
 * support check scored it above 1 or did not score it, else held back (`held_stories`, shown to operators) until a
 * rewrite scores better. A paper's story is in one of the two, never both: publishing one ends the other.
 */
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { heldStories, stories } from '../../db/schema'
import type { StoryDraft } from '../analysis/types'

/** A story scored this or less waits: 1 overstates, 0 contradicts (the contract's Story.support). */
export const HELD_SUPPORT = 1

export const isPublishable = (support: number | null) => support === null || support > HELD_SUPPORT

export type WrittenStory = StoryDraft & { support: number | null; model: string; problems?: string[] }
export type Placement = 'published' | 'held'

/**
 * Publishes or holds `story` for the paper, in the caller's transaction. A story published before keeps its first
 * published_at when it is replaced; a held story gives up its place in `stories` (the change feed records it gone).
 */
export async function placeStory(tx: Db, paperId: string, story: WrittenStory, now: Date): Promise<Placement> {
  const values = {
    headline: story.headline,
    dek: story.dek,
    body: story.body,
    whyItMatters: story.whyItMatters,
    caveats: story.caveats,
    support: story.support,
    model: story.model,
  }
  if (isPublishable(story.support)) {
    await tx.delete(heldStories).where(eq(heldStories.paperId, paperId))
    await tx
      .insert(stories)
      .values({ paperId, ...values, publishedAt: now })
      .onConflictDoUpdate({ target: stories.paperId, set: values }) // keeps the first published_at
    return 'published'
  }
  const held = { ...values, support: story.support!, problems: story.problems ?? [], writtenAt: now }
  await tx.delete(stories).where(eq(stories.paperId, paperId))
  await tx
    .insert(heldStories)
    .values({ paperId, ...held })
    .onConflictDoUpdate({ target: heldStories.paperId, set: held })
  return 'held'
}
