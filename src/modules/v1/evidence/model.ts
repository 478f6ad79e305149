/** TypeBox schemas of /api/v1/evidence: groups of claims about one question, by organism and direction. */
import { t } from 'elysia'
import { Enum, Integer } from '../../../http/schemas'
import { STUDY_TYPES } from '../../../taxonomy'
import { EntityRef, PaperRef, claimFields } from '../model'

const Side = (what: string) =>
  t.Object({
    text: t.String({ description: `The ${what} as asked.` }),
    entities: t.Array(EntityRef, {
      description:
        `The entities the ${what} names exactly (key, name or any alias, ignoring case), most-studied ` +
        `first; empty when it names none.`,
    }),
  })

export const EvidenceGroup = t.Object({
  organism: {
    ...claimFields.organism,
    description: "The claims' organism as written; null for claims that name none.",
  },
  direction: {
    ...claimFields.direction,
    description:
      "The claims' own direction field: increase, decrease, no_change, mixed, or null when the claim states none.",
  },
  claim_count: Integer({
    minimum: 1,
    description: 'Claims in the group; every matching claim is in exactly one group.',
  }),
  paper_count: Integer({ minimum: 1, description: 'Distinct papers those claims come from.' }),
  study_types: t.Array(Enum(STUDY_TYPES), {
    description: 'The study types of those papers (judged ones), strongest first.',
  }),
  papers: t.Array(PaperRef, { maxItems: 5, description: 'At most 5 of those papers, strongest evidence first.' }),
})

export const Evidence = t.Object({
  subject: Side('subject'),
  object: Side('object'),
  groups: t.Array(EvidenceGroup),
})
