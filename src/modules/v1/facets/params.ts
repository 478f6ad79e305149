/** The `count` and `group_by` parameters of /papers and /claims. */
import { t } from 'elysia'
import { invalidParameter, quoted } from '../../../http/errors'
import { Integer, type Pagination } from '../model'
import { booleanParam, type Param } from '../../../http/params'

/**
 * Up to this many matching rows, counts and groups outside the precomputed counts are exact (./bound.ts counts them).
 */
export const FACET_EXACT_BOUND = 5_000

export const GROUP_BY = ['topic', 'study_type', 'preprint', 'indexed_month', 'organism', 'relation'] as const
export type GroupBy = (typeof GROUP_BY)[number]

/** Most groups one answer lists (the largest first); organisms and relations can be many. */
export const MAX_GROUPS = 200

/** When counts and groups are exact, and what an estimate looks like (src/modules/v1/facets/bound.ts). */
const EXACTNESS = (what: string) =>
  `Counts are exact, kept up to date with every write, when the filters are ` +
  (what === 'papers'
    ? `since, until, topic, study_type, preprint and a min_relevance that is a multiple of 0.5`
    : `relation and organism`) +
  `; with any other filter ` +
  `(${what === 'papers' ? 'q, or a min_relevance such as 2.25' : 'subject, object or paper_id'}) they are exact ` +
  `while at most ${FACET_EXACT_BOUND.toLocaleString('en')} ${what} match, and above that estimated from a sample of ` +
  `the newest ${what}: ` +
  `the answer then says so with pagination.total_estimated and group_by_estimated set to true (both absent when exact).`

export const facetParams = (what: string) => ({
  count: booleanParam(
    `true: pagination.total is the number of ${what} matching the filters (all pages, not this ` +
      `page). ${EXACTNESS(what)}`,
  ),
  group_by: {
    description:
      `One of ${GROUP_BY.join(', ')}: group_by in the answer counts the ${what} matching the filters by that value, ` +
      `largest ` +
      `group first (then by key), at most ${MAX_GROUPS} groups. indexed_month is the paper's YYYY-MM; organism is an ` +
      `organism entity ` +
      `of the paper (for /papers) or the claim's organism text (for /claims); relation counts papers having a claim ` +
      `of that relation ` +
      `(for /papers) or claims (for /claims); topic, study_type and preprint are the paper's. A paper with two ` +
      `organisms counts in both; ` +
      `a null key counts what has no value. ${EXACTNESS(what)}`,
    schema: { type: 'string', enum: [...GROUP_BY] },
    parse: (raw: string, name: string) => {
      if ((GROUP_BY as readonly string[]).includes(raw)) return raw as GroupBy
      throw invalidParameter(`${name} has unknown value ${quoted(raw)}; allowed: ${GROUP_BY.join(', ')}`)
    },
  } satisfies Param<GroupBy>,
})

export const Group = t.Object({
  key: t.Union([t.String(), t.Boolean(), t.Null()], { description: 'The value grouped on; null for none.' }),
  count: Integer({ minimum: 0 }),
})

export const FacetFields = {
  group_by: t.Optional(
    t.Array(Group, { description: 'Present with group_by=: counts by the value asked for, over every page.' }),
  ),
  group_by_estimated: t.Optional(
    t.Literal(true, {
      description:
        `Present (true) only when the group_by counts are estimated: more ` +
        `than ${FACET_EXACT_BOUND.toLocaleString('en')} matches under a filter the precomputed counts do not hold ` +
        `(see group_by).`,
    }),
  ),
}

export type Group = { key: string | boolean | null; count: number }
export type FacetAnswer = { total?: number; totalEstimated?: true; group_by?: Group[]; groupByEstimated?: true }

/** A page's pagination and extra fields with what count= and group_by= found. */
export function withFacets<P extends object>(
  pagination: P,
  facets: FacetAnswer,
): { pagination: P & { total?: number; total_estimated?: true }; group_by?: Group[]; group_by_estimated?: true } {
  return {
    pagination:
      facets.total === undefined
        ? pagination
        : { ...pagination, total: facets.total, ...(facets.totalEstimated ? { total_estimated: true as const } : {}) },
    ...(facets.group_by ? { group_by: facets.group_by } : {}),
    ...(facets.groupByEstimated ? { group_by_estimated: true as const } : {}),
  }
}

/** Pagination, plus total when count=true. */
export const countedPagination = (pagination: typeof Pagination) =>
  t.Object({
    ...pagination.properties,
    total: t.Optional(
      Integer({
        minimum: 0,
        description:
          'Present with count=true: how many items match the filters, over every page (see count for when it is ' +
          'estimated).',
      }),
    ),
    total_estimated: t.Optional(
      t.Literal(true, {
        description:
          `Present (true) only when total is an estimate: more ` +
          `than ${FACET_EXACT_BOUND.toLocaleString('en')} matches under a filter the precomputed counts do not ` +
          `hold (see count).`,
      }),
    ),
  })
