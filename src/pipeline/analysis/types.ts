/** What every analyzer (built-in or model) reads and produces, independent of the database. */
import type { Chemical, MeshHeading } from '../../db/schema'
import type { StudyType, TopicSlug } from '../../taxonomy'

/** The parts of a paper record analysis reads. */
export type PaperInput = {
  id: string
  title: string
  abstract: string | null // plain text
  journal: string
  preprint: boolean
  publicationTypes: string[]
  meshHeadings: MeshHeading[]
  keywords: string[]
  chemicals: Chemical[]
}

export type Judgement = {
  relevance: number // 0..3, probability-weighted
  relevanceConfidence: number
  newsworthiness: number // 0..3
  studyType: StudyType
  studyTypeConfidence: number
  topic: TopicSlug
  topicConfidence: number
  promotional: number // 0..1
}

export type StoryDraft = { headline: string; dek: string; body: string; whyItMatters: string; caveats: string }

/** An entity found in a paper; `key` is the lexicon key (or a slug for MeSH headings). */
export type FoundEntity = {
  type: string
  key: string
  name: string
  ids: Record<string, string>
  role: string
  detail: Record<string, unknown> | null
}

export type ClaimSide = {
  text: string
  entity: { type: string; key: string; name: string; ids: Record<string, string> } | null
}

export type FoundClaim = {
  subject: ClaimSide
  relation: string
  object: ClaimSide
  organism: string | null
  context: Record<string, unknown> | null
  direction: 'increase' | 'decrease' | 'no_change' | 'mixed' | null
  magnitude: string | null
  evidence: string
  confidence: number
}

export type Extraction = { entities: FoundEntity[]; claims: FoundClaim[] }
