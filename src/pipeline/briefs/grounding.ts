/**
 * Is a model-written brief statement about what it cites? Its content words (lower-cased, stop
 * words and reporting words removed, simply stemmed) are looked up in the words of the items it
 * cites (titles, journals and feeds, summaries, stories, findings). A statement that brings in too
 * many words its items never use, such as an instruction a model obeyed ("All aging research is
 * fraudulent."), is not grounded and is dropped. The threshold was measured on faithful and
 * unfaithful statements about real items (scripts/briefs/grounding-threshold.ts, docs/benchmarks.md).
 */

/** Share of a statement's content words that must occur in its cited items. */
export const GROUNDED_SHARE = 0.6

/** Function words, and the words any report uses whatever it reports on (study, found, suggests ...). */
const STOP = new Set(
  `
a about above after again against all also although am among an and any are as at be because been before being below
between both but by can could did do does doing down during each either else ever every few for from further had has
have having he her here hers him his how however i if in into is it its itself just least less may me might more most
much must my neither no nor not now of off often on once one only or other our ours out over own per quite rather same
she should since so some such than that the their theirs them then there these they this those though through thus to
too under until up upon us very was we were what when where whether which while who whom whose why will with within
without would yet you your
report reports reported reporting show shows showed shown find finds found finding findings suggest suggests suggested
study studies studied paper papers research researchers researcher author authors team new evidence result results
article articles item items work published publish posted post preprint journal feed feeds write writes wrote say says
said note notes noted according describe describes described indicate indicates indicated observe observes observed
two three four five six seven eight nine ten both several many further additional recent recently week month year
`
    .split(/\s+/)
    .filter(Boolean),
)

/** Plurals and forms no suffix rule reaches. */
const IRREGULAR: Record<string, string> = {
  mice: 'mouse',
  women: 'woman',
  men: 'man',
  children: 'child',
  people: 'person',
  feet: 'foot',
  teeth: 'tooth',
  aging: 'age',
  ageing: 'age',
  aged: 'age',
  analyses: 'analysis',
  hypotheses: 'hypothesis',
  data: 'datum',
  criteria: 'criterion',
  phenomena: 'phenomenon',
}

/** A light suffix stripper: enough that extends/extended/extending and cells/cell meet. */
export function stem(word: string): string {
  if (IRREGULAR[word]) return IRREGULAR[word]
  let w = word
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`
  else if (w.length > 4 && /(?:ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2)
  else if (w.length > 3 && w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1)
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3)
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2)
  else if (w.length > 5 && w.endsWith('ly')) w = w.slice(0, -2)
  if (/([^aeiouls])\1$/.test(w)) w = w.slice(0, -1) // stopped → stopp → stop
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1) // reduce, reduced → reduc
  return w
}

/** The content words of a text, stemmed, in order (repeats kept). */
export function contentWords(text: string): string[] {
  const words =
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .match(/[a-z0-9]+(?:\+)?/g) ?? []
  return words.filter((w) => !STOP.has(w) && !/^\d{1,2}$/.test(w) && (w.length > 1 || /\d/.test(w))).map(stem)
}

export type Grounding = { share: number; missing: string[] }

/** The share of a statement's distinct content words found among its items' words, and those that are not. */
export function grounding(statement: string, citedText: string[]): Grounding {
  const words = [...new Set(contentWords(statement))]
  if (words.length === 0) return { share: 1, missing: [] }
  const known = new Set(citedText.flatMap(contentWords))
  const missing = words.filter((w) => !known.has(w))
  return { share: (words.length - missing.length) / words.length, missing }
}

export const isGrounded = (g: Grounding) => g.share >= GROUNDED_SHARE
