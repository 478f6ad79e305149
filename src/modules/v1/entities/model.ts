/** TypeBox schemas of the entity resources (the contract's Entity, EntityDetail, EntityPaper). */
import { t } from 'elysia'
import { ENTITY_TYPES as LEXICON_ENTITY_TYPES } from '../../../lexicon/lexicon'
import { Integer, paperRefFields } from '../model'

/** The types the `type` filter accepts: the lexicon's, plus mesh (subject headings from the literature database). */
export const ENTITY_TYPES = [...LEXICON_ENTITY_TYPES, 'mesh'] as const

const Url = t.String({ format: 'uri' })

export const entityFields = {
  // A string rather than an enum: the contract lists the types as examples, and one odd row must not fail a whole page.
  type: t.String({ description: `Entity type, e.g. ${ENTITY_TYPES.join(', ')}.` }),
  key: t.String({ description: 'Normalised key within the type: an ontology id when known.' }),
  name: t.String(),
  ids: t.Record(t.String(), t.String()),
  paper_count: Integer({ minimum: 0, description: 'Papers that involve the entity (refreshed every minute).' }),
  api_url: Url,
}

export const Entity = t.Object(entityFields)

export const EntityPaper = t.Object({
  ...paperRefFields,
  roles: t.Array(t.String(), { description: 'Roles the entity plays in this paper, sorted.' }),
})

export const EntityDetail = t.Object({
  ...entityFields,
  claim_count: Integer({ minimum: 0, description: 'Claims with the entity as subject or object.' }),
  papers: t.Array(EntityPaper, {
    description: 'Newest first by indexed_date, then id; paged by the top-level pagination.',
  }),
})
