/**
 * A small seeded PRNG (mulberry32) and the helpers the corpus generator draws with. Every paper
 * gets a generator of its own, derived from (seed, paper index), so a paper's content never
 * depends on which papers were generated before it or on how a run is cut into batches.
 */

/** murmur3's finaliser: spreads every input bit over the whole 32-bit word. */
function fmix32(value: number): number {
  let h = value >>> 0
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** A 32-bit hash of two integers; (a, b) and (b, a) differ. */
export function mix(a: number, b: number): number {
  return fmix32(fmix32(a ^ 0x9e3779b9) + Math.imul(b | 0, 0x27d4eb2d) + 0x165667b1)
}

/** A table for weighted picks, built once so each pick is one draw and a short scan. */
export class Weighted<T> {
  readonly items: T[]
  private readonly cumulative: number[]
  private readonly total: number

  constructor(entries: readonly (readonly [T, number])[]) {
    if (entries.length === 0) throw new Error('Weighted needs at least one entry')
    this.items = entries.map(([item]) => item)
    let sum = 0
    this.cumulative = entries.map(([, weight]) => (sum += Math.max(0, weight)))
    this.total = sum
    if (!(sum > 0)) throw new Error('Weighted needs a positive total weight')
  }

  /** The item whose cumulative band contains `unit` * total (`unit` in [0, 1)). */
  at(unit: number): T {
    const target = unit * this.total
    const cumulative = this.cumulative
    let i = 0
    while (i < cumulative.length - 1 && cumulative[i]! <= target) i++
    return this.items[i]!
  }
}

export class Random {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0
  }

  /** A generator for one paper of one corpus: independent of every other (seed, index). */
  static forPaper(seed: number, index: number): Random {
    return new Random(mix(seed, index))
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** Uniform in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min)
  }

  /** Uniform in [min, max), rounded to `digits` decimals so it survives a float4 round trip. */
  round(min: number, max: number, digits = 2): number {
    const scale = 10 ** digits
    return Math.round(this.float(min, max) * scale) / scale
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list')
    return items[Math.floor(this.next() * items.length)]!
  }

  weighted<T>(table: Weighted<T>): T {
    return table.at(this.next())
  }

  /**
   * `count` distinct items in their original order, without copying or shuffling the list
   * (selection sampling: one draw per item looked at).
   */
  sample<T>(items: readonly T[], count: number): T[] {
    const out: T[] = []
    let needed = Math.min(count, items.length)
    for (let i = 0; i < items.length && needed > 0; i++) {
      if (this.next() * (items.length - i) < needed) {
        out.push(items[i]!)
        needed--
      }
    }
    return out
  }

  /** Approximately normal (mean 0, sd 1): the sum of four uniforms, rescaled. */
  gauss(): number {
    return (this.next() + this.next() + this.next() + this.next() - 2) * 1.7320508
  }
}
