/**
 * What each MCP tool answers, as output schemas: the Data API's envelopes (data, pagination, not_found), so an agent
 * can read `structuredContent` without parsing text. Items are the API's own objects, described in the OpenAPI
 * document (/api/v1/openapi.json); here only the envelope is fixed, because `fields=` may keep any subset of them.
 */
import { z } from 'zod'

const item = z.record(z.string(), z.unknown())

export const pagination = z
  .object({
    next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page.'),
    has_more: z.boolean(),
    limit: z.number().int(),
  })
  .loose()

/** A paged list: papers, stories, entities, claims. */
export const pagedList = { data: z.array(item).describe('The items, as the HTTP API answers them.'), pagination }

/** One object: a paper, the stats. */
export const single = { data: item }

/** get_papers: the papers in the order asked, null where unknown. */
export const batch = { data: z.array(item.nullable()), not_found: z.array(z.string()) }

/** One entity with its papers, paged. */
export const entityDetail = { data: item, pagination }

/** list_claims: the claims, or with count / group_by their count or groups. */
export const claims = {
  data: z.union([z.array(item), item]).describe('Claims; with count=true { count }; with group_by the groups.'),
  pagination: pagination.optional(),
}

/** get_evidence: the question and its groups by organism and direction. */
export const evidence = {
  data: z
    .object({
      subject: item,
      object: item,
      groups: z.array(
        z
          .object({
            organism: z.string().nullable(),
            direction: z.string().nullable(),
            claim_count: z.number().int(),
            paper_count: z.number().int(),
            study_types: z.array(z.string()),
            papers: z.array(item),
          })
          .loose(),
      ),
    })
    .loose(),
}

/** list_topics: every topic with its counts. */
export const topics = { data: z.array(item) }
