/**
 * The planted scenarios (src/seed/planted.ts): where they sit, what their claims state, and that no
 * random paper can imitate them (which is what lets the intelligence tests say "found exactly
 * these"). No database.
 */
import { describe, expect, test } from 'bun:test'
import { generateCorpus, generatePaper, type PaperBundle } from '../../src/seed/corpus'
import {
  BLOCK,
  FADING_HALLMARK,
  FADING_OFFSETS,
  PLANTED_ORGANISMS,
  SCENARIOS,
  SCENARIO_OFFSETS,
  plantAt,
} from '../../src/seed/planted'

const options = { papers: 20_000, seed: 3, endDate: '2026-11-20', days: 90 }
const corpus: PaperBundle[] = [...generateCorpus(options)]
const planted = corpus.filter((_, k) => plantAt(k, options.papers) !== null)
const random = corpus.filter((_, k) => plantAt(k, options.papers) === null)

describe('layout', () => {
  test('every block holds each scenario once, the single-paper one only the first block', () => {
    const counts = new Map<string, number>()
    for (let k = 0; k < options.papers; k++) {
      const p = plantAt(k, options.papers)
      if (p) counts.set(p.scenario, (counts.get(p.scenario) ?? 0) + 1)
    }
    for (const s of SCENARIOS)
      expect({ s: s.name, n: counts.get(s.name) }).toEqual({
        s: s.name,
        n: s.firstBlockOnly ? 1 : options.papers / BLOCK,
      })
    // fading papers: every block of the first half
    expect(counts.get('fading-hallmark')).toBe((options.papers / 2 / BLOCK) * FADING_OFFSETS.length)
    expect(new Set([...SCENARIO_OFFSETS, ...FADING_OFFSETS]).size).toBe(SCENARIO_OFFSETS.length + FADING_OFFSETS.length)
    expect(SCENARIOS).toHaveLength(SCENARIO_OFFSETS.length)
  })

  test('a planted paper is the same alone and in a run, and differs by seed like any paper', () => {
    const k = SCENARIO_OFFSETS[0]!
    expect(generatePaper(k, options)).toEqual(corpus[k]!)
    expect(generatePaper(k, { ...options, seed: 4 }).paper.id).not.toBe(corpus[k]!.paper.id)
  })
})

describe('planted papers', () => {
  const scenarioPapers = corpus
    .map((b, k) => ({ b, plant: plantAt(k, options.papers) }))
    .filter((x) => x.plant && x.plant.scenario !== 'fading-hallmark')

  test('are judged and extracted, and keep one resolved claim that quotes the abstract', () => {
    for (const { b } of scenarioPapers) {
      expect(b.paper.relevance).not.toBeNull()
      expect(b.paper.relevance!).toBeGreaterThanOrEqual(2)
      expect(b.claims).toHaveLength(1)
      const [c] = b.claims
      expect(c!.subjectEntity).not.toBeNull()
      expect(c!.objectEntity).not.toBeNull()
      expect(b.paper.abstract!).toContain(c!.evidence!)
    }
  })

  /** What each scenario's claim must say, written out rather than derived from the generator. */
  const DIRECTION: Record<string, 'increase' | 'decrease'> = {
    'C1-extends-1': 'increase',
    'C1-extends-2': 'increase',
    'C1-shortens': 'decrease',
    'C2-lowers': 'decrease',
    'C2-raises': 'increase',
    'D1-extends-medaka': 'increase',
    'D1-shortens-lemur': 'decrease',
    'D2-lowers-male': 'decrease',
    'D2-raises-female': 'increase',
    'D3-extends-low-dose': 'increase',
    'D3-shortens-high-dose': 'decrease',
    'D4-extends-1': 'increase',
    'D4-extends-2': 'increase',
    'G-no-trial-mice': 'increase',
    'G-no-trial-zebrafish': 'increase',
    'G-acarbose-trial': 'decrease',
    'G-single-paper': 'decrease',
    'G-replicated-mice': 'decrease',
    'G-replicated-rats': 'decrease',
    'G-single-organism-1': 'decrease',
    'G-single-organism-2': 'decrease',
  }

  test('state exactly the conditions their scenario fixes', () => {
    expect(Object.keys(DIRECTION).sort()).toEqual(SCENARIOS.map((s) => s.name).sort())
    for (const { b, plant } of scenarioPapers) {
      const plan = SCENARIOS.find((s) => s.name === plant!.scenario)!.plan
      const [claim] = b.claims
      expect(claim!.context!.sex).toBe(plan.sex === 'both' ? undefined : plan.sex)
      expect(claim!.context!.dose).toBe(plan.dose ?? undefined)
      expect(claim!.context!.tissue).toBeUndefined()
      expect(claim!.organism).toBe(plan.organism.latin)
      expect(claim!.subjectEntity!.key).toBe(plan.intervention.key)
      expect(`${claim!.objectEntity!.type}:${claim!.objectEntity!.key}`).toBe(plan.outcome)
      expect({ scenario: plant!.scenario, direction: claim!.direction }).toEqual({
        scenario: plant!.scenario,
        direction: DIRECTION[plant!.scenario]!,
      })
    }
  })

  test('fading papers name and link stem cell exhaustion, and only in the first half', () => {
    const fading = corpus
      .map((b, k) => ({ b, k, plant: plantAt(k, options.papers) }))
      .filter((x) => x.plant?.scenario === 'fading-hallmark')
    for (const { b, k } of fading) {
      expect(k).toBeLessThan(options.papers / 2)
      expect(b.paper.abstract!.toLowerCase()).toContain('stem cell exhaustion')
      expect(b.entities.some((e) => e.type === 'hallmark' && e.key === FADING_HALLMARK)).toBe(true)
    }
  })
})

describe('random papers cannot imitate the scenarios', () => {
  test('never use the planted organisms', () => {
    const latin = new Set(Object.values(PLANTED_ORGANISMS).map((o) => o.latin))
    for (const b of random) for (const c of b.claims) expect(latin.has(c.organism ?? '')).toBe(false)
    expect(planted.some((b) => b.claims.some((c) => latin.has(c.organism ?? '')))).toBe(true)
  })

  test.each([
    ['liraglutide and hair greying', 'PUBCHEM.COMPOUND:16134956', 'hair-greying'],
    ['everolimus and synaptic loss', 'CHEBI:68478', 'synaptic-loss'],
    ['MCC950 and muscle atrophy', 'mcc950', 'muscle-atrophy'],
  ])('never state %s', (_name, subject, object) => {
    const states = (b: PaperBundle) =>
      b.claims.some((c) => c.subjectEntity?.key === subject && c.objectEntity?.key === object)
    expect(random.filter(states)).toEqual([])
    expect(planted.filter(states).length).toBeGreaterThan(0)
  })

  test('name stem cell exhaustion far more rarely than the planted papers do', () => {
    const links = (list: PaperBundle[]) => list.filter((b) => b.entities.some((e) => e.key === FADING_HALLMARK)).length
    const firstHalf = random.filter((b) => corpus.indexOf(b) < options.papers / 2)
    expect(links(firstHalf) * 3).toBeLessThan(links(planted))
  })
})
