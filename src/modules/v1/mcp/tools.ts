/**
 * The MCP tools: each is one Data API call made in-process with the caller's own key, so the tools
 * answer exactly what the HTTP API answers (same serializers, licensing rules, validation messages)
 * and the caller's key, tier and limits apply. An API error becomes a tool error carrying the
 * contract's message, so the agent can correct its arguments.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { STUDY_TYPES } from '../../../taxonomy'
import { ENTITY_TYPES } from '../entities/model'
import * as output from './output'

export type ApiCall = (path: string, init?: { method: 'POST'; body: unknown }) => Promise<Response>

const text = (value: unknown) => ({
  content: [{ type: 'text' as const, text: typeof value === 'string' ? value : JSON.stringify(value) }],
})

/** A tool's answer: the API's JSON as text (for clients that read text) and as structured content (output.ts). */
export async function answer(response: Response) {
  const body = (await response.json().catch(() => null)) as { error?: { message: string; code: string } } | null
  if (!response.ok) {
    const error = body?.error
    return {
      ...text(`${response.status} ${error?.code ?? 'error'}: ${error?.message ?? response.statusText}`),
      isError: true,
    }
  }
  return { ...text(body), structuredContent: (body ?? {}) as Record<string, unknown> }
}

/** A query string from the arguments given, in their order; absent ones are left out. */
function query(args: Record<string, unknown>): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue
    params.set(name, Array.isArray(value) ? value.join(',') : String(value))
  }
  const q = params.toString()
  return q ? `?${q}` : ''
}

/**
 * A path segment for the in-process call, or null for one that cannot be sent as such: "." and ".."
 * are dot segments, which URL parsing resolves (even as %2e), so that `key: ".."` would reach another
 * route. No entity has such a key. Everything else is percent-encoded, "/" included.
 */
export function segment(value: string): string | null {
  return value === '.' || value === '..' ? null : encodeURIComponent(value)
}

/**
 * An entity asked for by another of its names answers 308 with the entity's own URL (entities by any
 * name: src/modules/v1/entities/resolve.ts). The tool follows it once, within the entity routes only.
 */
export async function followEntityRedirect(call: ApiCall, response: Response): Promise<Response> {
  if (response.status !== 308) return response
  const location = new URL(response.headers.get('location') ?? '', 'http://localhost')
  const at = location.pathname.indexOf('/api/v1/entities/')
  return at < 0 ? response : call(`${location.pathname.slice(at)}${location.search}`)
}

const paging = {
  limit: z.number().int().min(1).max(100).optional().describe('Page size, 1 to 100 (default 25).'),
  cursor: z.string().optional().describe('pagination.next_cursor of the previous page; other arguments unchanged.'),
}
const paperFilters = {
  topic: z.string().optional().describe('Topic slug or comma-separated slugs (see get_stats / the topics list).'),
  study_type: z
    .string()
    .optional()
    .describe(`A study type or a comma-separated list: ${STUDY_TYPES.join(', ')}.`),
  since: z.string().optional().describe('Only papers indexed on or after this date (YYYY-MM-DD).'),
  until: z.string().optional().describe('Only papers indexed on or before this date (YYYY-MM-DD).'),
  min_relevance: z.number().min(0).max(3).optional().describe('Lowest relevance to aging biology, 0 to 3 (default 2).'),
  preprint: z.boolean().optional().describe('true: preprints only; false: peer-reviewed only.'),
  fields: z.string().optional().describe('Comma-separated fields to keep, e.g. id,title,judgement.topic.'),
}

const READ_ONLY = { readOnlyHint: true, openWorldHint: false }

export function registerTools(server: McpServer, call: ApiCall): void {
  server.registerTool(
    'search_papers',
    {
      description:
        'Ranked full-text search over aging-biology papers (titles and abstracts), with judgement, story summary and ' +
        'score.',
      inputSchema: {
        q: z.string().describe('Words, "quoted phrases", OR and -exclusions.'),
        ...paperFilters,
        ...paging,
      },
      outputSchema: output.pagedList,
      annotations: READ_ONLY,
    },
    async (args) => answer(await call(`/api/v1/search${query(args)}`)),
  )

  server.registerTool(
    'get_paper',
    {
      description:
        'The full record of one paper: judgement, story, entities and claims. id: MED-123, PPR-45, pmid:123 or ' +
        'doi:10.x/y.',
      inputSchema: { id: z.string(), fields: paperFilters.fields },
      outputSchema: output.single,
      annotations: READ_ONLY,
    },
    async ({ id, fields }) => answer(await call(`/api/v1/papers/${encodeURIComponent(id)}${query({ fields })}`)),
  )

  server.registerTool(
    'get_papers',
    {
      description:
        'Up to 500 papers at once by id, pmid:N or doi:10.x/y, in the order given; unknown ids come back as null and ' +
        'in not_found. Each started 100 ids count as one request against the rate limit.',
      inputSchema: { ids: z.array(z.string()).min(1).max(500) },
      outputSchema: output.batch,
      annotations: READ_ONLY,
    },
    async ({ ids }) => answer(await call('/api/v1/papers/batch', { method: 'POST', body: { ids } })),
  )

  server.registerTool(
    'list_stories',
    {
      description: 'Published plain-language stories about papers, newest first.',
      inputSchema: {
        since: paperFilters.since,
        until: paperFilters.until,
        topic: paperFilters.topic,
        study_type: paperFilters.study_type,
        ...paging,
      },
      outputSchema: output.pagedList,
      annotations: READ_ONLY,
    },
    async (args) => answer(await call(`/api/v1/stories${query(args)}`)),
  )

  server.registerTool(
    'find_entities',
    {
      description:
        'Genes, interventions, organisms, pathways and other entities the papers involve, most-studied first. q ' +
        'matches names, keys and aliases.',
      inputSchema: {
        q: z.string().optional(),
        type: z.string().optional().describe('Entity type, e.g. gene, intervention, organism.'),
        ...paging,
      },
      outputSchema: output.pagedList,
      annotations: READ_ONLY,
    },
    async (args) => answer(await call(`/api/v1/entities${query(args)}`)),
  )

  server.registerTool(
    'get_entity',
    {
      description:
        'One entity with its claim count and its papers, newest first. key: the entity key, or any of its names or ' +
        'aliases (SIRT1, p16, sirolimus), which is resolved to the one entity of that type it names.',
      inputSchema: {
        type: z.enum(ENTITY_TYPES).describe('Entity type.'),
        key: z
          .string()
          .min(1)
          .describe('The entity key (NCBIGene:23411, CHEBI:9168) or a name or alias (SIRT1, sirolimus).'),
        min_relevance: paperFilters.min_relevance,
        ...paging,
      },
      outputSchema: output.entityDetail,
      annotations: READ_ONLY,
    },
    async ({ type, key, ...rest }) => {
      const encoded = segment(key)
      if (encoded === null)
        return {
          ...text(
            `404 not_found: no entity of type ${JSON.stringify(type)} with key ${JSON.stringify(key)}, nor one of ` +
              `that type by that name`,
          ),
          isError: true,
        }
      return answer(
        await followEntityRedirect(
          call,
          await call(`/api/v1/entities/${encodeURIComponent(type)}/${encoded}${query(rest)}`),
        ),
      )
    },
  )

  server.registerTool(
    'list_claims',
    {
      description:
        'Extracted claims (subject, relation, object, organism, evidence), newest first; count and group_by ' +
        'summarise them.',
      inputSchema: {
        subject: z.string().optional(),
        object: z.string().optional(),
        relation: z.string().optional(),
        organism: z.string().optional(),
        paper_id: z.string().optional(),
        count: z.boolean().optional(),
        group_by: z.enum(['topic', 'study_type', 'preprint', 'indexed_month', 'organism', 'relation']).optional(),
        ...paging,
      },
      outputSchema: output.claims,
      annotations: READ_ONLY,
    },
    async (args) => answer(await call(`/api/v1/claims${query(args)}`)),
  )

  // As the route: 1 to 200 characters, not blank.
  const text200 = z.string().min(1).max(200).regex(/\S/, 'must not be blank')
  server.registerTool(
    'get_evidence',
    {
      description:
        'What the claims say about one question, e.g. subject rapamycin and object lifespan: groups by organism and ' +
        'direction, each with its claim and paper counts, study types and at most 5 papers, strongest evidence first ' +
        '(human trial, observational, animal, invertebrate, cells, computational; then relevance; then newest). ' +
        'Counts add up to list_claims for the same filters.',
      inputSchema: {
        subject: text200.describe(
          'An entity key, name or alias, e.g. rapamycin, sirolimus or CHEBI:9168. Unknown: an error.',
        ),
        object: text200.describe('The outcome, e.g. lifespan (matched as list_claims matches object).'),
        organism: text200.optional().describe('A known organism by any name: mouse, mice, Mus musculus, C. elegans.'),
        study_type: paperFilters.study_type,
      },
      outputSchema: output.evidence,
      annotations: READ_ONLY,
    },
    async (args) => answer(await call(`/api/v1/evidence${query(args)}`)),
  )

  server.registerTool(
    'get_stats',
    {
      description: 'Corpus figures: papers read and judged, stories, entities and claims, by topic.',
      outputSchema: output.single,
      annotations: READ_ONLY,
    },
    async () => answer(await call('/api/v1/stats')),
  )

  server.registerTool(
    'list_topics',
    {
      description:
        'The topics papers are filed under (slug, name, description) with their paper counts: the values `topic` ' +
        'takes.',
      outputSchema: output.topics,
      annotations: READ_ONLY,
    },
    async () => answer(await call('/api/v1/topics')),
  )
}
