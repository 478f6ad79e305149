/** Splits an abstract into sentences without breaking at "C. elegans", "e.g.", "et al." or decimals. */

const ABBREVIATION = /(?:\b(?:e\.g|i\.e|et al|vs|Fig|Figs|approx|ca|cf|Dr|No)\.|\b[A-Z]\.)$/

export type Sentence = { text: string; start: number }

export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = []
  const boundary = /[.!?](?=\s+(?:["'(\[]?[A-Z0-9]|[a-z]{1,3}[A-Z0-9]))/g
  let start = 0
  for (const m of text.matchAll(boundary)) {
    const end = m.index! + 1
    const candidate = text.slice(start, end)
    // Only the end can match (its longest form, "approx.", is 7 characters): the last 8, one more for the \b before it,
    // answer the same as the whole candidate without scanning it from every position.
    if (ABBREVIATION.test(candidate.length > 8 ? candidate.slice(-8) : candidate)) continue
    const trimmed = candidate.trim()
    if (trimmed) out.push({ text: trimmed, start: start + candidate.indexOf(trimmed) })
    start = end
  }
  const rest = text.slice(start).trim()
  if (rest) out.push({ text: rest, start: text.indexOf(rest, start) })
  return out
}
