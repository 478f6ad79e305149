/**
 * How often a cue occurs in each part of a reading (title, then each sentence), from one pass over all the parts.
 *
 * The rules ask this of some forty cues per paper. Asked part by part it was one regular-expression call per cue
 * per sentence (six hundred calls a paper) after a first pass to see whether the cue occurs at all; here each cue
 * is run once over the parts joined by a separator no cue can match across, and the answers are kept for the
 * reading, so a cue asked by two rules (ageing words by relevance and topic) is read once.
 * test/analysis/part-hits.test.ts holds the counts equal to matching each part alone, on every fixture record.
 */
import type { Reading } from './reading'

/** A space, a control character no cue names, a space: a cue's words, spaces and punctuation never span it. */
const SEPARATOR = ' \u0001 '

type Joined = { text: string; starts: number[]; hits: Map<RegExp, number[]> }
const joinedReadings = new WeakMap<Reading, Joined>()

function joinedOf(reading: Reading): Joined {
  let joined = joinedReadings.get(reading)
  if (!joined) {
    const starts: number[] = []
    let offset = 0
    for (const part of reading.parts) {
      starts.push(offset)
      offset += part.text.length + SEPARATOR.length
    }
    joined = { text: reading.parts.map((p) => p.text).join(SEPARATOR), starts, hits: new Map() }
    joinedReadings.set(reading, joined)
  }
  return joined
}

/** The number of matches of `cue` (a global expression) in each of `reading.parts`, in order. */
export function hitsByPart(reading: Reading, cue: RegExp): number[] {
  const joined = joinedOf(reading)
  const known = joined.hits.get(cue)
  if (known) return known
  const hits = new Array<number>(reading.parts.length).fill(0)
  const { text, starts } = joined
  let part = 0
  cue.lastIndex = 0
  for (let m = cue.exec(text); m; m = cue.exec(text)) {
    if (m[0].length === 0) cue.lastIndex++
    while (part + 1 < starts.length && starts[part + 1] <= m.index) part++
    hits[part]++
  }
  cue.lastIndex = 0
  joined.hits.set(cue, hits)
  return hits
}

const anywhere = new WeakMap<Reading, Map<RegExp, boolean>>()

/**
 * Whether `cue` occurs anywhere in the title and abstract as written (`reading.all`), kept for the reading: relevance
 * and topic both ask it of the ageing words, and where they are absent the answer takes a scan of the whole text.
 */
export function occursIn(reading: Reading, cue: RegExp): boolean {
  let known = anywhere.get(reading)
  if (!known) anywhere.set(reading, (known = new Map()))
  let hit = known.get(cue)
  if (hit === undefined) {
    cue.lastIndex = 0
    hit = cue.test(reading.all)
    cue.lastIndex = 0
    known.set(cue, hit)
  }
  return hit
}
