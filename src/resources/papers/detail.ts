/**
 * PaperDetail: the `data` of /api/v1/papers/{id}, a paper's full record in its contract shape. The Data API
 * serves it live and the stored documents (src/documents/papers.ts) keep it as text: one function for both,
 * so a stored document is what a live answer would be.
 */
import type { PaperDetail } from './queries'
import { serializeClaim } from '../claims/serialize'
import { serializePaperEntity } from '../entities/serialize'
import { serializePaperRef, serializeStory } from './serialize'

export function serializePaperDetail(detail: PaperDetail, base: string) {
  const license = detail.paper.abstractLicense
  return {
    ...serializePaperRef(detail.paper, base),
    story: detail.story ? serializeStory(detail.story, base) : null,
    upvotes: detail.upvotes,
    entities: detail.entities.map((e) => serializePaperEntity(e, license)),
    claims: detail.claims.map((c) => serializeClaim(c, license)),
  }
}
