/**
 * The contradictions and gaps the synthetic generator plants (src/seed/planted.ts) are found in a
 * loaded corpus, and the look-alikes it plants beside them are not: the computation is checked
 * against known answers, on whichever driver the run uses.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { computeIntelligence } from '../../src/pipeline/intelligence/refresh'
import { loadCorpus } from '../../src/seed/bulk-load'
import { PLANTED_ORGANISMS } from '../../src/seed/planted'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'

// Two blocks of 1,000: every scenario twice, the single-paper one once, fading papers in block 0.
const OPTIONS = { papers: 2000, seed: 5, endDate: '2026-11-20', days: 90 }

let database: TestDatabase
type Group = {
  id: string
  subject_key: string
  object_key: string
  organism_keys: string[]
  papers_increase: number
  papers_decrease: number
  score: number
}
type Gap = {
  id: string
  kind: string
  subject_key: string | null
  object_key: string | null
  counts: Record<string, number>
  details: Record<string, unknown>
  paper_ids: string[]
  contradiction_id: string | null
}
let groups: Group[]
let gaps: Gap[]

const O = PLANTED_ORGANISMS
const ACARBOSE = 'intervention:CHEBI:2376'
const LIFESPAN = 'phenotype:lifespan'
const IL6 = 'biomarker:il-6-level'

beforeAll(async () => {
  database = await freshDatabase()
  await loadCorpus(database, OPTIONS)
  await computeIntelligence(database, { now: new Date('2026-11-21T00:00:00Z') })
  groups = await database.rows<Group>(sql`select * from contradiction_groups`)
  gaps = await database.rows<Gap>(sql`select * from knowledge_gaps`)
}, 120_000)
afterAll(() => database.close())

const pairsIn = (organism: string) =>
  database.rows<{ group_id: string }>(sql`select group_id from contradiction_pairs where organism_key = ${organism}`)

describe(`planted contradictions on ${testDriver}`, () => {
  test('acarbose on lifespan in golden hamsters: two papers extend it, one shortens it, in each block', async () => {
    const group = groups.find((g) => g.subject_key === ACARBOSE && g.object_key === LIFESPAN)!
    expect(group).toBeDefined()
    expect(group.organism_keys).toContain(O.hamster.key)
    const pairs = await database.rows<{
      increase_claim_id: number
      decrease_claim_id: number
      conditions: Record<string, string>
    }>(sql`
      select increase_claim_id, decrease_claim_id, conditions from contradiction_pairs where group_id = ${group.id} and organism_key = ${O.hamster.key}`)
    expect(pairs.length).toBeGreaterThan(0)
    // Both sides state male and the same dose, so the pair shows them as shared conditions.
    expect(pairs[0]!.conditions).toEqual({ sex: 'male', dose: '1,000 ppm in the diet' })
    const papers = await database.rows<{ direction: string; n: number }>(sql`
      select c.direction, count(distinct c.paper_id)::int as n from claims c
      where c.organism = ${O.hamster.latin} group by c.direction order by c.direction`)
    expect(papers).toEqual([
      { direction: 'decrease', n: 2 },
      { direction: 'increase', n: 4 },
    ])
  })

  test('taurine on IL-6 in guinea pigs: a claim that states no sex is comparable with one in females', async () => {
    const group = groups.find((g) => g.subject_key === 'intervention:CHEBI:15891' && g.object_key === IL6)!
    expect(group).toBeDefined()
    expect(group.organism_keys).toEqual([O.guineaPig.key])
    expect([group.papers_increase, group.papers_decrease]).toEqual([2, 2])
    const [pair] = await database.rows<{ conditions: Record<string, string> }>(
      sql`select conditions from contradiction_pairs where group_id = ${group.id}`,
    )
    expect(pair!.conditions).toEqual({ dose: '1% in drinking water' })
  })

  test.each([
    ['different organisms (glycine: medaka up, grey mouse lemur down)', O.medaka.key, O.lemur.key],
    ['different sex (lithium on IL-6 in pigs: males down, females up)', O.pig.key, O.pig.key],
    ['different dose (metformin in cynomolgus macaques: 50 up, 500 mg/kg/day down)', O.macaque.key, O.macaque.key],
    ['same direction (curcumin extends rabbit lifespan twice)', O.rabbit.key, O.rabbit.key],
  ])('no contradiction for %s', async (_name, a, b) => {
    expect(await pairsIn(a)).toEqual([])
    expect(await pairsIn(b)).toEqual([])
    // The claims are there: they are found and judged not comparable, not missed.
    const [row] = await database.rows<{ n: number }>(sql`
      select count(*)::int as n from claims c join entities e on e.id = c.subject_entity_id
      where c.organism in (select latin from (values ${sql.join(
        Object.values(O).map((o) => sql`(${o.key}, ${o.latin})`),
        sql`, `,
      )}) v(key, latin) where key in (${a}, ${b}))`)
    expect(row!.n).toBeGreaterThanOrEqual(4)
  })

  test('only the planted scenarios give contradictions in the planted organisms', () => {
    const planted = new Set<string>(Object.values(O).map((o) => o.key))
    const found = groups.filter((g) => g.organism_keys.some((k) => planted.has(k)))
    expect(found.map((g) => `${g.subject_key}|${g.object_key}`).sort()).toEqual(
      [`${ACARBOSE}|${LIFESPAN}`, `intervention:CHEBI:15891|${IL6}`].sort(),
    )
  })
})

describe(`planted gaps on ${testDriver}`, () => {
  const gapOf = (kind: string, subject: string, object: string | null = null) =>
    gaps.find((g) => g.kind === kind && g.subject_key === subject && (object === null || g.object_key === object))

  test('follistatin gene therapy: animal lifespan evidence in two species and no human trial', () => {
    const gap = gapOf('no_human_trial', 'intervention:follistatin-gene-therapy')!
    expect(gap).toBeDefined()
    expect(gap.counts.animal_papers).toBeGreaterThanOrEqual(4)
    expect(gap.counts.organisms).toBeGreaterThanOrEqual(2)
    expect(gap.counts.human_trials).toBe(0)
    expect(gap.details.organisms).toEqual(expect.arrayContaining(['Mus musculus', 'Danio rerio']))
  })

  test('acarbose has animal lifespan evidence and a human trial, so it is not that gap', async () => {
    expect(gapOf('no_human_trial', ACARBOSE)).toBeUndefined()
    const [trials] = await database.rows<{
      n: number
    }>(sql`select count(*)::int as n from papers p join paper_entities pe on pe.paper_id = p.id
      join entities e on e.id = pe.entity_id where e.key = 'CHEBI:2376' and pe.role = 'studied' and p.study_type = 'human_trial'`)
    expect(trials!.n).toBeGreaterThanOrEqual(2)
  })

  test('liraglutide reducing hair greying rests on one paper; everolimus on synaptic loss, in mice and rats, on none of the kinds', () => {
    const single = gapOf('single_paper', 'intervention:PUBCHEM.COMPOUND:16134956', 'phenotype:hair-greying')!
    expect(single).toBeDefined()
    expect(single.paper_ids).toHaveLength(1)
    for (const kind of ['single_paper', 'single_organism'])
      expect(gapOf(kind, 'intervention:CHEBI:68478', 'phenotype:synaptic-loss')).toBeUndefined()
  })

  test('MCC950 reducing muscle atrophy is replicated, but only in rats', () => {
    const gap = gapOf('single_organism', 'intervention:mcc950', 'phenotype:muscle-atrophy')!
    expect(gap).toBeDefined()
    expect(gap.counts.papers).toBe(4)
    expect(gap.details.organism).toBe('Rattus norvegicus')
  })

  test('stem cell exhaustion is the only area with little recent work', () => {
    const declining = gaps.filter((g) => g.kind === 'declining_attention')
    expect(declining.map((g) => g.subject_key)).toEqual(['hallmark:stem-cell-exhaustion'])
    const c = declining[0]!.counts
    expect(c.recent_papers).toBeLessThan(c.expected_recent / 2)
    expect(c.history_papers).toBeGreaterThanOrEqual(10)
  })

  test('each contradiction group is a disputed finding that links it', () => {
    const disputed = gaps.filter((g) => g.kind === 'disputed_finding')
    expect(disputed.map((g) => g.contradiction_id).sort()).toEqual(groups.map((g) => g.id).sort())
    for (const g of disputed) expect(g.paper_ids).toHaveLength(2)
  })
})
