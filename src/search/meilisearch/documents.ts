/** One paper as a Meilisearch document, and the index settings that search it like PostgreSQL does. */
import type { MeshHeading } from '../../db/schema'
import { MAX_RANKED_HITS } from '../backend'
import { dayNumber } from './filters'
import { joinNumberHyphens } from '../websearch'

export type PaperSource = {
  id: string
  title: string
  abstract: string | null
  keywords: string[]
  meshHeadings: MeshHeading[]
  relevance: number | null
  indexedDate: string
  studyType: string | null
  topic: string | null
  preprint: boolean
}

export type PaperDocument = {
  id: string
  title: string
  keywords: string[]
  mesh: string[]
  abstract: string
  relevance?: number // absent until judged, so `relevance >= x` leaves unjudged papers out
  indexed_day: number
  study_type: string | null
  topic: string | null
  preprint: boolean
}

export function paperDocument(p: PaperSource): PaperDocument {
  const doc: PaperDocument = {
    id: p.id,
    title: joinNumberHyphens(p.title),
    keywords: p.keywords.map(joinNumberHyphens),
    mesh: p.meshHeadings.map((h) => h.descriptor),
    abstract: joinNumberHyphens(p.abstract ?? ''),
    indexed_day: dayNumber(p.indexedDate),
    study_type: p.studyType,
    topic: p.topic,
    preprint: p.preprint,
  }
  if (p.relevance !== null) doc.relevance = p.relevance
  return doc
}

export const INDEX_SETTINGS = {
  // In ranking order, like the PostgreSQL weights: title, then keywords and MeSH, then abstract.
  searchableAttributes: ['title', 'keywords', 'mesh', 'abstract'],
  filterableAttributes: ['relevance', 'indexed_day', 'study_type', 'topic', 'preprint'],
  sortableAttributes: ['indexed_day', 'relevance'],
  // Equal text matches fall to judgement relevance, then recency, as on PostgreSQL.
  rankingRules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness', 'relevance:desc', 'indexed_day:desc'],
  // Gene and complex names differ by one character (mTORC1 and mTORC2, IL6 and IL7): no typos on
  // short words, which is where such names live.
  typoTolerance: { minWordSizeForTypos: { oneTypo: 8, twoTypos: 12 } },
  pagination: { maxTotalHits: MAX_RANKED_HITS },
}
