/**
 * Stored list items (issue 39): beside each paper's detail body, paper_documents keeps the paper as a /papers item
 * (a Paper: its PaperRef and its story's headline, dek and URL) and, when it has a story, as a /stories item (a
 * StoryItem: the story and its paper as a PaperRef). A list page reads them with its rows and joins them into the
 * answer as they are (src/resources/papers/paper-json.ts, `stored`), without parsing; a row whose item is missing
 * is written by the page's SQL builder instead, in the same statement.
 *
 * They share the body's row and its generation: written by the same statement as the body, from the same rows
 * (src/documents/papers.ts storeBodies), made NULL with it by the triggers (drizzle/0037), so an item is stale
 * exactly when its body is. Both items hold only paper and story columns, which those triggers cover. Like the body,
 * an item holds BASE_MARK where its URLs take the base, and is '' (served live) when its text writes the mark itself.
 */
import type { PaperDetail } from '../resources/papers/queries'
import { serializeListedPaper } from '../resources/papers/serialize'
import { serializeStoryItem } from '../resources/stories/serialize'
import type { StoredItem } from '../resources/papers/paper-json'

const SENTINEL = '\u0001'
const BASE_MARK = '\\u0001'

/** `make`'s JSON with BASE_MARK for the base, or '' when the mark occurs elsewhere than at its `urls` URLs. */
function markedText(make: (base: string) => unknown, urls: number): string {
  const text = JSON.stringify(make(SENTINEL))
  if (countOf(text, BASE_MARK) === urls) return text
  // A text holding U+0001 itself: exact, at twice the cost (see documentBody in ./papers.ts).
  return text.replaceAll(BASE_MARK, '') === JSON.stringify(make('')) ? text : ''
}

function countOf(text: string, part: string): number {
  let n = 0
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) n++
  return n
}

/** The paper of `detail` as a /papers list item (to store with its body). */
export function paperItem(detail: PaperDetail): string {
  const { paper, story } = detail
  const row = { ...paper, storyHeadline: story?.headline ?? null, storyDek: story?.dek ?? null }
  return markedText((base) => serializeListedPaper(row, base), story ? 2 : 1)
}

/** The story of `detail` as a /stories list item, or null when the paper has none. */
export function storyItem(detail: PaperDetail): string | null {
  const { paper, story } = detail
  if (!story) return null
  return markedText((base) => serializeStoryItem({ story, paper, publishedAtText: '' }, base), 2)
}

const storedColumn = (column: string): StoredItem => ({
  // '' is "serve this one live", as NULL (stale) is.
  column: `nullif(d.${column}, '')`,
  join: (paperId) => `left join paper_documents d on d.paper_id = ${paperId}`,
})

/** Where a /papers page finds its stored items. */
export const STORED_PAPER_ITEMS = storedColumn('item')
/** Where a /stories page finds its stored items. */
export const STORED_STORY_ITEMS = storedColumn('story_item')
