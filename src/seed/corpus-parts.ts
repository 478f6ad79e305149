/**
 * Pieces of a synthetic paper record that are pure bookkeeping: which day a paper was indexed,
 * its publication types and its chemical list.
 */
import type { Chemical } from '../db/schema'
import type { Design } from './design'
import { cap } from './capitalize'
import { Weighted, type Random } from './random'

const DAY = 86_400_000

type DayTable = { key: string; dayFor(index: number): number }
let lastTable: DayTable | null = null

/**
 * Day (UTC midnight, epoch ms) of paper `index` out of `papers`: papers are laid out over the
 * window in index order, each day's share proportional to its weight (weekends a third of a
 * weekday), so ids grow with indexed dates as PMIDs do.
 */
export function indexedDays(endDate: string, days: number, papers: number): DayTable {
  const key = `${endDate}|${days}|${papers}`
  if (lastTable?.key === key) return lastTable
  const end = Date.parse(`${endDate}T00:00:00Z`)
  const starts: number[] = []
  const cumulative: number[] = []
  let total = 0
  for (let i = days - 1; i >= 0; i--) {
    const start = end - i * DAY
    const weekday = new Date(start).getUTCDay()
    total += weekday === 0 || weekday === 6 ? 0.35 : 1
    starts.push(start)
    cumulative.push(total)
  }
  const dayFor = (index: number) => {
    const target = ((index + 0.5) / Math.max(papers, 1)) * total
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid]! <= target) lo = mid + 1
      else hi = mid
    }
    return starts[lo]!
  }
  lastTable = { key, dayFor }
  return lastTable
}

const TYPES: Record<Design['studyType'], Weighted<string[]>> = {
  human_trial: new Weighted([
    [['Randomized Controlled Trial', 'Journal Article'], 70],
    [['Clinical Trial', 'Journal Article'], 30],
  ]),
  human_observational: new Weighted([
    [['Journal Article'], 50],
    [['Observational Study', 'Journal Article'], 35],
    [['Multicenter Study', 'Observational Study', 'Journal Article'], 15],
  ]),
  animal: new Weighted([
    [['Journal Article'], 75],
    [["Research Support, Non-U.S. Gov't", 'Journal Article'], 25],
  ]),
  invertebrate: new Weighted([
    [['Journal Article'], 75],
    [["Research Support, Non-U.S. Gov't", 'Journal Article'], 25],
  ]),
  cells: new Weighted([
    [['Journal Article'], 75],
    [["Research Support, Non-U.S. Gov't", 'Journal Article'], 25],
  ]),
  computational: new Weighted([
    [['Journal Article'], 85],
    [['Validation Study', 'Journal Article'], 15],
  ]),
  review: new Weighted([
    [['Review', 'Journal Article'], 65],
    [['Systematic Review', 'Review', 'Journal Article'], 25],
    [['Meta-Analysis', 'Systematic Review', 'Journal Article'], 10],
  ]),
  other: new Weighted([
    [['Editorial'], 35],
    [['Comment', 'Journal Article'], 35],
    [['Letter'], 15],
    [['Journal Article'], 15],
  ]),
}

export function publicationTypes(rng: Random, d: Design): string[] {
  return d.preprint ? ['Preprint'] : rng.weighted(TYPES[d.studyType])
}

/** UNII registry numbers for the drugs we are sure of; the rest are listed without one. */
const REGISTRY: Record<string, [string, string]> = {
  rapamycin: ['Sirolimus', 'W36ZG6FT64'],
  metformin: ['Metformin', '9100L32L2N'],
  aspirin: ['Aspirin', 'R16CO5Y76E'],
  nicotinamide: ['Niacinamide', '25X51I8RD4'],
  glycine: ['Glycine', 'TE7660XO1C'],
  melatonin: ['Melatonin', 'JL5DK93RCL'],
}

export function chemicalFor(d: Design): Chemical[] {
  if (!d.intervention || d.kind !== 'drug') return []
  const known = REGISTRY[d.intervention.name]
  return [{ name: known?.[0] ?? cap(d.intervention.name), registry: known?.[1] ?? null }]
}
