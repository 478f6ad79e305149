/** Claims in their contract shape; evidence follows the abstract's licence (licensing rule 2). */
import { licenseAllowsReuse } from '../../taxonomy'
import { paperSiteUrl } from '../../public-urls'
import type { ClaimPaperRow } from './queries'
import type { ClaimRow } from './claim-row'
import { isoTimestamp } from '../../queries/prepared'

export function serializeClaim({ claim, subjectEntity, objectEntity }: ClaimRow, abstractLicense: string | null) {
  return {
    id: claim.id,
    paper_id: claim.paperId,
    subject: { text: claim.subjectText, entity: subjectEntity },
    relation: claim.relation,
    object: { text: claim.objectText, entity: objectEntity },
    organism: claim.organism,
    context: claim.context && Object.keys(claim.context).length > 0 ? claim.context : null,
    direction: claim.direction as 'increase' | 'decrease' | 'no_change' | 'mixed' | null,
    magnitude: claim.magnitude,
    evidence: licenseAllowsReuse(abstractLicense) ? claim.evidence : null,
    confidence: claim.confidence,
    created_at: isoTimestamp(claim.createdAt),
  }
}

export function serializeClaimPaper(p: ClaimPaperRow, base: string) {
  return {
    id: p.id,
    title: p.title,
    doi: p.doi,
    journal: p.journal,
    published_date: p.publishedDate,
    preprint: p.preprint,
    url: p.url,
    site_url: paperSiteUrl(base, p.id),
  }
}

/** ClaimItem: the claim, its evidence under its paper's licence, and the paper in brief. */
export function serializeClaimItem(row: ClaimRow & { paper: ClaimPaperRow }, base: string) {
  return { ...serializeClaim(row, row.paper.abstractLicense), paper: serializeClaimPaper(row.paper, base) }
}
