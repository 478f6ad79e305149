/** Claims in their contract shape; evidence follows the abstract's licence (licensing rule 2). */
import { licenseAllowsReuse } from '../../../taxonomy'
import type { ClaimRow } from './query'

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
    created_at: claim.createdAt.toISOString(),
  }
}
