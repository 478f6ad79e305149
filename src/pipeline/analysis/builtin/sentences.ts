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
    if (ABBREVIATION.test(candidate)) continue
    const trimmed = candidate.trim()
    if (trimmed) out.push({ text: trimmed, start: start + candidate.indexOf(trimmed) })
    start = end
  }
  const rest = text.slice(start).trim()
  if (rest) out.push({ text: rest, start: text.indexOf(rest, start) })
  return out
}
