/** StoryItem: every field of Story, plus the paper it is about (as a PaperRef, so without its story). */
import { serializePaperRef, serializeStory } from '../papers/serialize'
import type { StoryListRow } from './queries'

export function serializeStoryItem(row: StoryListRow, base: string) {
  return {
    ...serializeStory(row.story, base),
    paper_id: row.story.paperId,
    paper: serializePaperRef(row.paper, base),
  }
}
