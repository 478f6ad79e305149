/** One paper as a Meilisearch document, and the index settings that search it like PostgreSQL does. */
import { dayNumber } from './filters'
import { joinNumberHyphens } from '../websearch'
import { meilisearchSynonyms } from '../synonyms'

export type PaperSource = {
  id: string
  title: string
  abstract: string | null
  relevance: number | null
  indexedDate: string
  publishedDate?: string | null
  studyType: string | null
  topic: string | null
  preprint: boolean
}

export type PaperDocument = {
  id: string
  title: string
  abstract: string
  relevance?: number // absent until judged, so `relevance >= x` leaves unjudged papers out
  indexed_day: number
  published_day?: number // absent without a publication date, so a bound on it leaves the paper out, as on PostgreSQL
  study_type: string | null
  topic: string | null
  preprint: boolean
}

export function paperDocument(p: PaperSource): PaperDocument {
  const doc: PaperDocument = {
    id: p.id,
    title: joinNumberHyphens(p.title),
    abstract: joinNumberHyphens(p.abstract ?? ''),
    indexed_day: dayNumber(p.indexedDate),
    study_type: p.studyType,
    topic: p.topic,
    preprint: p.preprint,
  }
  if (p.relevance !== null) doc.relevance = p.relevance
  if (p.publishedDate) doc.published_day = dayNumber(p.publishedDate)
  return doc
}

/**
 * Meilisearch ranks at most this many hits for a query (its pagination.maxTotalHits); a ranking cut
 * there says so (SearchPage.cutAt). PostgreSQL has no such bound.
 */
export const MEILI_MAX_HITS = 1000

export const INDEX_SETTINGS = {
  // Title and abstract, as the contract says, in ranking order like the PostgreSQL weights.
  searchableAttributes: ['title', 'abstract'],
  filterableAttributes: ['relevance', 'indexed_day', 'published_day', 'study_type', 'topic', 'preprint'],
  sortableAttributes: ['indexed_day', 'relevance'],
  // Equal text matches fall to judgement relevance, then recency, as on PostgreSQL.
  rankingRules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness', 'relevance:desc', 'indexed_day:desc'],
  // Gene and complex names differ by one character (mTORC1 and mTORC2, IL6 and IL7): no typos on
  // short words, which is where such names live.
  typoTolerance: { minWordSizeForTypos: { oneTypo: 8, twoTypos: 12 } },
  // One more than is served, so that a ranking with more matches is known to be cut.
  pagination: { maxTotalHits: MEILI_MAX_HITS + 1 },
  // Entity names and their other names (p16: CDKN2A, p16INK4a), from the lexicon as PostgreSQL
  // expands them (src/search/synonyms.ts); the sync puts a changed lexicon's in place (sync.ts).
  synonyms: meilisearchSynonyms(),
}
