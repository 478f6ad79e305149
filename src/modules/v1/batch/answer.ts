/** The batch answer and the `ids` parameter, shared by POST /papers/batch and GET /papers?ids=. */
import { t } from 'elysia'
import { invalidParameter } from '../../../http/errors'
import type { Field } from '../../../http/json-body'
import type { V1Context } from '../context'
import { Paper } from '../model'
import { serializeListedPaper } from '../../../resources/papers/serialize'
import { IDS_PER_REQUEST, type BatchCharge } from './allowance'
import { IDENTIFIER_FORMS, parsePaperIdentifier } from './identifiers'
import { lookupPapers } from './service'

export const MAX_POST_IDS = 500
export const MAX_QUERY_IDS = 100

export const BatchAnswer = t.Object({
  data: t.Array(t.Union([Paper, t.Null()]), {
    description: 'One entry per id asked for, in the same order: the paper, or null when no paper has that id.',
  }),
  not_found: t.Array(t.String(), { description: 'The ids (as given) that matched no paper, in the order given.' }),
})

export const COST =
  `Each started ${IDS_PER_REQUEST} ids count as one request against the rate limit (a batch of 500 ` +
  `ids counts as 5).`

/** The ids field of the POST body: kept as given (duplicates too), so data lines up with the request. */
export const idsField: Field<string[]> = {
  description: `Up to ${MAX_POST_IDS} paper identifiers, each ${IDENTIFIER_FORMS}.`,
  schema: {
    type: 'array',
    items: { type: 'string', examples: ['MED-39172536', 'doi:10.1038/s43587-024-00001-x', 'pmid:39172536'] },
    minItems: 1,
    maxItems: MAX_POST_IDS,
  },
  parse: (value, name) => {
    if (!Array.isArray(value)) throw invalidParameter(`${name} must be an array of strings`)
    if (value.length === 0) throw invalidParameter(`${name} must have at least 1 item`)
    if (value.length > MAX_POST_IDS)
      throw invalidParameter(`${name} must have at most ${MAX_POST_IDS} items (got ${value.length})`)
    return value.map((v, i) => {
      if (typeof v !== 'string')
        throw invalidParameter(`${name}[${i}] must be a string (got ${v === null ? 'null' : typeof v})`)
      return v
    })
  },
}

/** The `ids` parameter of GET /api/v1/papers: a comma-separated list of up to 100 identifiers. */
export const idsParam = {
  description:
    `Up to ${MAX_QUERY_IDS} comma-separated paper identifiers (${IDENTIFIER_FORMS}); the answer is then a batch ` +
    `answer ` +
    `(data in the order given with null for unknown ids, and not_found), and no other parameter may be given. ${COST}`,
  schema: { type: 'string', examples: ['MED-39172536,pmid:39172537,doi:10.1000/abc'] },
  parse: (raw: string, name: string) => {
    const ids = raw.split(',')
    if (ids.length > MAX_QUERY_IDS)
      throw invalidParameter(
        `${name} must list at most ${MAX_QUERY_IDS} ids (got ${ids.length}); POST /api/v1/papers/batch takes up ` +
          `to ${MAX_POST_IDS}`,
      )
    return ids
  },
}

/** The batch answer for `given` (already bounded): validated, charged, then one query. */
export async function batchAnswer(
  v1: V1Context,
  charge: BatchCharge,
  request: Request,
  set: { headers: Record<string, unknown> },
  given: string[],
  name: string,
) {
  const identifiers = given.map((raw, i) => parsePaperIdentifier(raw, `${name}[${i}]`))
  await charge(request, set, given.length)
  const rows = await lookupPapers(v1.db, identifiers)
  return {
    data: rows.map((r) => (r ? serializeListedPaper(r, v1.baseUrl) : null)),
    not_found: given.filter((_, i) => rows[i] === null),
  }
}
