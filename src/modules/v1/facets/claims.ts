/**
 * Counts and facets over /claims with the list's filters: the list's own conditions (claimConditions
 * in src/queries/claims.ts) over the same aliases (c claims, p papers, se/oe the entities).
 */
import type { Db } from '../../../db/client'
import { claimConditions, type ClaimFilters } from '../../../queries/claims'
import { statementFamily } from '../../../queries/prepared'
import { MAX_GROUPS, type FacetAnswer, type GroupBy } from './params'

// The same joins as the list, so subject/object filters on entity names see the same rows.
const FROM = `from claims c join papers p on p.id = c.paper_id
  left join entities se on se.id = c.subject_entity_id left join entities oe on oe.id = c.object_entity_id`

const GROUP_KEYS: Record<GroupBy, string> = {
  relation: 'c.relation',
  organism: 'c.organism',
  topic: 'p.topic',
  study_type: 'p.study_type',
  preprint: 'p.preprint',
  indexed_month: `to_char(p.indexed_date, 'YYYY-MM')`,
}

const countClaims = statementFamily<{ n: number }>((where) => `select count(*)::int as n ${FROM} where ${where}`)
const groupClaims = Object.fromEntries(Object.entries(GROUP_KEYS).map(([by, key]) => [by,
  statementFamily<{ key: string | boolean | null; count: number }>((where) =>
    `select ${key} as key, count(*)::int as count ${FROM} where ${where} group by 1 order by 2 desc, 1 asc nulls last limit ${MAX_GROUPS}`)])) as
  Record<GroupBy, ReturnType<typeof statementFamily<{ key: string | boolean | null; count: number }>>>

/** What count= and group_by= add to a /claims answer. */
export async function claimFacets(db: Db, filters: ClaimFilters, p: { count?: boolean; group_by?: GroupBy }): Promise<FacetAnswer> {
  if (!p.count && !p.group_by) return {}
  const where = await claimConditions(db, filters)
  const [total, groups] = await Promise.all([
    p.count ? countClaims(db, [], where, []).then((rows) => rows[0].n) : undefined,
    p.group_by ? groupClaims[p.group_by](db, [], where, []) : undefined,
  ])
  return { ...(total === undefined ? {} : { total }), ...(groups ? { group_by: groups.map((g) => ({ key: g.key, count: Number(g.count) })) } : {}) }
}
