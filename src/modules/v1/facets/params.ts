/** The `count` and `group_by` parameters of /papers and /claims (issue 18). */
import { t } from 'elysia'
import { invalidParameter, quoted } from '../../../http/errors'
import { Integer, type Pagination } from '../model'
import { booleanParam, type Param } from '../../../http/params'

export const GROUP_BY = ['topic', 'study_type', 'preprint', 'indexed_month', 'organism', 'relation'] as const
export type GroupBy = (typeof GROUP_BY)[number]

/** Most groups one answer lists (the largest first); organisms and relations can be many. */
export const MAX_GROUPS = 200

export const facetParams = (what: string) => ({
  count: booleanParam(`true: pagination.total is the exact number of ${what} matching the filters (all pages, not this page).`),
  group_by: {
    description: `One of ${GROUP_BY.join(', ')}: group_by in the answer counts the ${what} matching the filters by that value, largest ` +
      `group first (then by key), at most ${MAX_GROUPS} groups. indexed_month is the paper's YYYY-MM; organism is an organism entity ` +
      `of the paper (for /papers) or the claim's organism text (for /claims); relation counts papers having a claim of that relation ` +
      `(for /papers) or claims (for /claims); topic, study_type and preprint are the paper's. A paper with two organisms counts in both; ` +
      `a null key counts what has no value.`,
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
  group_by: t.Optional(t.Array(Group, { description: 'Present with group_by=: counts by the value asked for, over every page.' })),
}

export type FacetAnswer = { total?: number; group_by?: { key: string | boolean | null; count: number }[] }

/** A page's pagination and extra fields with what count= and group_by= found. */
export function withFacets<P extends object>(pagination: P, facets: FacetAnswer): { pagination: P & { total?: number }; group_by?: FacetAnswer['group_by'] } {
  return {
    pagination: facets.total === undefined ? pagination : { ...pagination, total: facets.total },
    ...(facets.group_by ? { group_by: facets.group_by } : {}),
  }
}

/** Pagination, plus total when count=true. */
export const countedPagination = (pagination: typeof Pagination) => t.Object({
  ...pagination.properties,
  total: t.Optional(Integer({ minimum: 0, description: 'Present with count=true: how many items match the filters, over every page.' })),
})
