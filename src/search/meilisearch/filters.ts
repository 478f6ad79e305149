/** The /papers filters (docs/contract-decisions.md: all of them apply to /search) in Meilisearch's filter syntax. */
import type { PaperFilters } from '../../resources/papers/queries'

/** Dates are filtered as numbers: 2026-11-21 is 20261121. */
export const dayNumber = (isoDate: string) => Number(isoDate.slice(0, 10).replaceAll('-', ''))

const list = (values: string[]) => `[${values.map((v) => JSON.stringify(v)).join(', ')}]`

export function translateFilters(f: PaperFilters): string[] {
  const filters: string[] = []
  // Unjudged papers have no relevance attribute, so any bound leaves them out, as on PostgreSQL.
  if (f.minRelevance > 0) filters.push(`relevance >= ${f.minRelevance}`)
  if (f.since) filters.push(`indexed_day >= ${dayNumber(f.since)}`)
  if (f.until) filters.push(`indexed_day <= ${dayNumber(f.until)}`)
  if (f.publishedSince) filters.push(`published_day >= ${dayNumber(f.publishedSince)}`)
  if (f.publishedUntil) filters.push(`published_day <= ${dayNumber(f.publishedUntil)}`)
  if (f.studyType) filters.push(`study_type IN ${list(f.studyType)}`)
  if (f.topic) filters.push(`topic IN ${list(f.topic)}`)
  if (f.preprint !== undefined) filters.push(`preprint = ${f.preprint}`)
  return filters
}
