/** The evidence answer in its documented shape; papers as PaperRef (their abstracts under the licensing rule). */
import type { EvidenceEntity, EvidenceGroupRow } from './queries'
import type { StudyType } from '../../taxonomy'
import { serializePaperRef } from '../papers/serialize'

type Direction = 'increase' | 'decrease' | 'no_change' | 'mixed' | null

export function serializeEvidence(
  question: { subject: string; object: string; subjectEntities: EvidenceEntity[]; objectEntities: EvidenceEntity[] },
  groups: EvidenceGroupRow[],
  base: string,
) {
  return {
    subject: { text: question.subject, entities: question.subjectEntities },
    object: { text: question.object, entities: question.objectEntities },
    groups: groups.map((g) => ({
      organism: g.organism,
      direction: g.direction as Direction,
      claim_count: g.claimCount,
      paper_count: g.paperCount,
      study_types: g.studyTypes as StudyType[],
      papers: g.papers.map((p) => serializePaperRef(p, base)),
    })),
  }
}
