/**
 * The one place where papers, judgements and stories become their contract shapes, including the
 * licensing rule for the abstract (served only under CC BY, CC0 or public domain).
 */
import type { PaperRow, StoryRow } from './queries'
import { STUDY_TYPE_LABELS, licenseAllowsReuse, type StudyType, type TopicSlug } from '../../taxonomy'
import { paperSiteUrl, storyUrl } from '../../public-urls'
import { isoTimestamp } from '../../queries/prepared'

export function serializeJudgement(p: PaperRow) {
  if (p.relevance === null || p.judgedAt === null) return null
  return {
    relevance: p.relevance,
    relevance_confidence: p.relevanceConfidence,
    newsworthiness: p.newsworthiness ?? 0,
    study_type: p.studyType as StudyType | null,
    study_type_label: p.studyType ? (STUDY_TYPE_LABELS[p.studyType as StudyType] ?? null) : null,
    study_type_confidence: p.studyTypeConfidence,
    topic: p.topic as TopicSlug | null,
    topic_confidence: p.topicConfidence,
    promotional: p.promotional,
    model: p.judgementModel ?? 'unknown',
    // An editor's correction answered no prompt: its version is the editor's, as its model is.
    prompt_version: p.judgementPromptVersion ?? (p.judgementModel === 'editor' ? 'editor' : 'unknown'),
    judged_at: isoTimestamp(p.judgedAt),
  }
}

/** PaperRef: every field of Paper except story. */
export function serializePaperRef(p: PaperRow, base: string) {
  return {
    id: p.id,
    source: p.source as 'MED' | 'PPR',
    doi: p.doi,
    title: p.title,
    authors: p.authors,
    journal: p.journal,
    published_date: p.publishedDate,
    indexed_date: p.indexedDate,
    preprint: p.preprint,
    publication_types: p.publicationTypes,
    url: p.url,
    site_url: paperSiteUrl(base, p.id),
    abstract: licenseAllowsReuse(p.abstractLicense) ? p.abstract : null,
    abstract_license: p.abstractLicense,
    judgement: serializeJudgement(p),
  }
}

export function serializeStorySummary(s: Pick<StoryRow, 'paperId' | 'headline' | 'dek'>, base: string) {
  return { headline: s.headline, dek: s.dek, url: storyUrl(base, s.paperId) }
}

export function serializeStory(s: StoryRow, base: string) {
  return {
    headline: s.headline,
    dek: s.dek,
    body: s.body,
    why_it_matters: s.whyItMatters,
    caveats: s.caveats,
    support: s.support,
    model: s.model,
    published_at: isoTimestamp(s.publishedAt),
    url: storyUrl(base, s.paperId),
  }
}

/** A Paper from a list row, which carries its story's headline and dek from a left join. */
export function serializeListedPaper(
  row: PaperRow & { storyHeadline: string | null; storyDek: string | null },
  base: string,
) {
  const story =
    row.storyHeadline === null ? null : { paperId: row.id, headline: row.storyHeadline, dek: row.storyDek ?? '' }
  return { ...serializePaperRef(row, base), story: story ? serializeStorySummary(story, base) : null }
}
