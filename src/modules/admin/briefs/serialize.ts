/** Briefs in their response shape. */
import type { BriefRow } from '../../../pipeline/briefs/store'
import { paperSiteUrl } from '../../../public-urls'
import type { BRIEF_KINDS } from './model'

export const briefUrl = (base: string, id: number) => `${base}/api/briefs/${id}`

export function serializeBriefSummary(b: BriefRow, base: string) {
  const filters = b.filters as Record<string, string[]>
  return {
    id: b.id,
    kind: b.kind as (typeof BRIEF_KINDS)[number],
    title: b.title,
    window: {
      since: b.windowStart ?? b.createdAt.toISOString().slice(0, 10),
      until: b.windowEnd ?? b.createdAt.toISOString().slice(0, 10),
    },
    filters: { topics: filters.topics ?? [], entities: filters.entities ?? [], source_tags: filters.source_tags ?? [] },
    counts: b.counts,
    model: b.model,
    prompt_version: b.promptVersion,
    created_at: b.createdAt.toISOString(),
    created_by: b.createdBy,
    url: briefUrl(base, b.id),
  }
}

export function serializeBrief(b: BriefRow, base: string) {
  return {
    ...serializeBriefSummary(b, base),
    summary: b.summary,
    sections: b.sections,
    citations: b.citations.map((c) => ({
      ...c,
      contradiction_id: c.contradiction_id ?? null,
      site_url: c.type === 'paper' && c.paper_id ? paperSiteUrl(base, c.paper_id) : null,
    })),
    content: b.content,
  }
}
