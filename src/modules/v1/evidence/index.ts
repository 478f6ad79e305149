/**
 * GET /api/v1/evidence: what the claims say about one question, such as rapamycin and
 * lifespan, grouped by organism and direction. The claims counted are those /api/v1/claims lists for
 * the same subject, object and organism (src/resources/evidence/queries.ts), so the counts add up to its count.
 */
import { Elysia, t } from 'elysia'
import { invalidParameter, notFound, quoted } from '../../../http/errors'
import { cachedJson } from '../response-cache'
import type { V1Context } from '../context'
import { errorResponses, documented } from '../model'
import { openApiParameters, parseParams } from '../params'
import { entitiesNamed, evidenceGroups } from '../../../resources/evidence/queries'
import { Evidence } from './model'
import { evidenceParams } from './params'
import { serializeEvidence } from '../../../resources/evidence/serialize'

export const evidenceModule = ({ db, baseUrl, cache }: V1Context) =>
  new Elysia({ name: 'v1-evidence' }).get(
    '/api/v1/evidence',
    ({ request, set }) =>
      cachedJson(cache, request, set, async () => {
        const p = parseParams(request.url, evidenceParams)
        if (p.subject === undefined)
          throw invalidParameter('subject is required: an entity key, name or alias, e.g. subject=rapamycin')
        if (p.object === undefined)
          throw invalidParameter('object is required: the outcome asked about, e.g. object=lifespan')
        const [subjectEntities, objectEntities] = await Promise.all([
          entitiesNamed(db, p.subject),
          entitiesNamed(db, p.object),
        ])
        if (subjectEntities.length === 0)
          throw notFound(
            `no entity is named ${quoted(p.subject)} (by key, name or alias); find one with /api/v1/entities?q=`,
          )
        const groups = await evidenceGroups(db, {
          subject: p.subject,
          object: p.object,
          organism: p.organism,
          studyTypes: p.study_type,
        })
        return {
          data: serializeEvidence(
            { subject: p.subject, object: p.object, subjectEntities, objectEntities },
            groups,
            baseUrl,
          ),
        }
      }),
    {
      response: { 200: documented(t.Object({ data: Evidence })), ...errorResponses },
      detail: {
        summary: 'Evidence about one question',
        description:
          'The claims whose subject is the entity `subject` names and whose object matches `object`, grouped by the ' +
          "claim's organism and direction (the claims' own fields). Every claim is counted in exactly one group, and " +
          'the claim counts add up to ' +
          'what /api/v1/claims?count=true answers for the same subject, object and organism (study_type further ' +
          'keeps the claims of papers of those study types). Groups come most claims first, then organism and ' +
          'direction (nulls last). Each group lists at most 5 of its papers, strongest evidence first: by study type ' +
          '(human_trial, human_observational, animal, invertebrate, cells, computational, review, other, then ' +
          'unjudged), then relevance (highest first), then published date (newest first), then id. A subject that ' +
          'names no entity: 404.',
        parameters: openApiParameters(evidenceParams),
      },
    },
  )
