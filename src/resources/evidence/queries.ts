/**
 * Evidence per question: the claims about a subject and an outcome (rapamycin and lifespan),
 * grouped by the claim's organism and direction, each group with its claim and paper counts, its
 * papers' study types and its strongest papers. The claims are exactly those /claims lists for the same
 * subject, object and organism (claimBranches: the one reading of a claims filter), narrowed, when asked,
 * to papers of some study types; every claim falls in exactly one group.
 */
import type { Db } from '../../db/client'
import { claimBranches, type ClaimFilters } from '../claims/queries'
import { resolveEntityIds } from '../entities/queries'
import { PAPER_SELECT, type PaperTextRow } from '../papers/queries'
import { Conditions, preparedStatement, statementFamilyOf } from '../../queries/prepared'
import { OPEN_LICENSES, STUDY_TYPES } from '../../taxonomy'

export type EvidenceFilters = { subject: string; object: string; organism?: string; studyTypes?: string[] }

export type EvidenceEntity = { type: string; key: string; name: string }

export type EvidenceGroupRow = {
  organism: string | null
  direction: string | null
  claimCount: number
  paperCount: number
  studyTypes: string[]
  /** At most PAPERS_PER_GROUP, strongest evidence first (STRONGEST_FIRST). */
  papers: PaperTextRow[]
}

export const PAPERS_PER_GROUP = 5

/**
 * The order of "strongest evidence first": the paper's study type, by how directly it speaks to people
 * (human_trial, human_observational, animal, invertebrate, cells, computational, then review, other and
 * unjudged papers), then relevance to aging biology (higher first, unjudged last), then the newest
 * published date (undated last), then paper id.
 */
export const STUDY_TYPE_RANK: readonly string[] = STUDY_TYPES
const STRONGEST_FIRST = `coalesce(array_position($?::text[], p.study_type), ${STUDY_TYPES.length + 1}),
  p.relevance desc nulls last, p.published_date desc nulls last, p.id`

/**
 * The entities a value names exactly (key, name or any alias, ignoring case; never a longer word), most-studied first.
 */
const entitiesById = preparedStatement<EvidenceEntity>(
  `select e.type, e.key, e.name from entities e
  where e.id = any($?::integer[]) order by e.paper_count desc, e.type, e.key`,
  { genericPlan: true },
)

export async function entitiesNamed(db: Db, value: string): Promise<EvidenceEntity[]> {
  const ids = await resolveEntityIds(db, value)
  return ids.length ? entitiesById(db, [ids]) : []
}

/**
 * The matched claims (`m`: id, paper, organism, direction, its paper's study type) as a CTE over the filter's disjoint
 * branches.
 */
const branch = (where: string) => `select c.id, c.paper_id, c.organism, c.direction from claims c where ${where}`
const matched = (branches: string[], last: string) => `m as (
  select c.id, c.paper_id, c.organism, c.direction, p.study_type
  from (${branches.map(branch).join(' union ')}) c
  join papers p on p.id = c.paper_id
  where ${last})`

const groupsOf = statementFamilyOf<{
  organism: string | null
  direction: string | null
  claimCount: number
  paperCount: number
  studyTypes: string[] | null
}>(
  (...wheres) => `with ${matched(wheres.slice(0, -1), wheres[wheres.length - 1])}
  select m.organism, m.direction, count(*)::int as "claimCount", count(distinct m.paper_id)::int as "paperCount",
    array_agg(distinct m.study_type) filter (where m.study_type is not null) as "studyTypes"
  from m group by 1, 2`,
)

/** Each group's strongest papers: a paper counts once per group however many of its claims the group holds. */
const papersOf = statementFamilyOf<PaperTextRow & { groupOrganism: string | null; groupDirection: string | null }>(
  (...wheres) => `with ${matched(wheres.slice(0, -1), wheres[wheres.length - 1])},
  g as (select distinct m.organism, m.direction, m.paper_id from m),
  ranked as (select g.organism, g.direction, g.paper_id,
      row_number() over (partition by g.organism, g.direction order by ${STRONGEST_FIRST}) as n
    from g join papers p on p.id = g.paper_id)
  select r.organism as "groupOrganism", r.direction as "groupDirection", r.n, ${PAPER_SELECT}
  from ranked r join papers p on p.id = r.paper_id
  where r.n <= ${PAPERS_PER_GROUP}
  order by r.organism, r.direction, r.n`,
)

const groupKey = (organism: string | null, direction: string | null) => JSON.stringify([organism, direction])

/**
 * The groups, most claims first, then organism and direction (nulls last). Values reach the statements as
 * parameters; the branches' SQL comes from claimBranches, shared with /claims' counts and facets.
 */
export async function evidenceGroups(db: Db, f: EvidenceFilters): Promise<EvidenceGroupRow[]> {
  const filters: ClaimFilters = { subject: f.subject, object: f.object, organism: f.organism }
  const branches = await claimBranches(db, filters)
  const last = new Conditions()
  if (f.studyTypes) last.add('p.study_type = any($?::text[])', f.studyTypes)
  const [groups, papers] = await Promise.all([
    groupsOf(db, [...branches, last]),
    // in the order of their $?: after the CTE's
    papersOf(db, [...branches, last], [[...STUDY_TYPE_RANK], [...OPEN_LICENSES]]),
  ])
  const byGroup = new Map<string, PaperTextRow[]>()
  for (const { groupOrganism, groupDirection, ...paper } of papers) {
    const key = groupKey(groupOrganism, groupDirection)
    byGroup.set(key, [...(byGroup.get(key) ?? []), paper as PaperTextRow])
  }
  const nullsLast = (a: string | null, b: string | null) =>
    a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : a > b ? 1 : 0
  return groups
    .map((g) => ({
      ...g,
      studyTypes: [...(g.studyTypes ?? [])].sort((a, b) => STUDY_TYPE_RANK.indexOf(a) - STUDY_TYPE_RANK.indexOf(b)),
      papers: byGroup.get(groupKey(g.organism, g.direction)) ?? [],
    }))
    .sort(
      (a, b) => b.claimCount - a.claimCount || nullsLast(a.organism, b.organism) || nullsLast(a.direction, b.direction),
    )
}
