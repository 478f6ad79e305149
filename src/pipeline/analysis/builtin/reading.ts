/**
 * How an editor reads a record: the title and the sentences that state the aim and the conclusion carry the
 * subject; background sentences carry the motivation; the rest carries methods and results. Every judging rule
 * reads the paper through this one view, built once per paper.
 */
import type { PaperInput } from '../types'
import { splitSentences } from './sentences'

export type Role = 'title' | 'aim' | 'conclusion' | 'background' | 'body'
export type Part = { role: Role; text: string }
export type Reading = {
  title: string
  abstract: string
  parts: Part[]
  /** Title, aim and conclusion sentences: what the paper is about. */
  subject: string
  /** Every sentence of the abstract, the title excluded. */
  body: string
  /** Title and abstract together. */
  all: string
}

/** Structured-abstract section names, by role (MEDLINE labels, PubMedQA labels, Europe PMC headings). */
const SECTION_NAMES =
  String.raw`background|introduction|context|rationale|objectives?|aims?|purpose|goals?` +
  `|hypothes[ie]s|methods?|design|setting|participants?|subjects|patients|materials and methods` +
  `|interventions?|measurements?|main outcome measures?|results?|findings|conclusions?|interpretation` +
  `|significance|discussion|implications|summary|evidence acquisition|evidence synthesis|data sources` +
  `|study selection|materials (?:and|&) methods|results (?:and|&) conclusions?|methods (?:and|&) results` +
  `|aims? (?:and|&) objectives?`
const SECTION = new RegExp(String.raw`^\s*(${SECTION_NAMES})\s*:\s*`, 'i')
/** Europe PMC abstracts put a section name alone on its line ("Background", then the text). */
const HEADING = new RegExp(String.raw`^\s*(${SECTION_NAMES})\s*:?\s*$`, 'i')
const SECTION_ROLE: Record<string, Role> = {
  background: 'background',
  introduction: 'background',
  context: 'background',
  rationale: 'background',
  objective: 'aim',
  objectives: 'aim',
  aim: 'aim',
  aims: 'aim',
  purpose: 'aim',
  goal: 'aim',
  goals: 'aim',
  hypothesis: 'aim',
  hypotheses: 'aim',
  conclusion: 'conclusion',
  conclusions: 'conclusion',
  interpretation: 'conclusion',
  significance: 'conclusion',
  implications: 'conclusion',
  summary: 'conclusion',
}

/** A sentence that says what the authors set out to do. */
const AIM = new RegExp(
  String.raw`\b(?:(?:we|this (?:study|work|paper|review|article|trial|chapter)|the (?:present|current) (?:study` +
    String.raw`|work|review)|here(?:in)?|in this (?:study|work|paper|review|article))\b[^.]{0,60}?\b(?:aim|sought` +
    '|set out|investigat|examin|determin|assess|test|explor|evaluat|analy[sz]|compar|hypothesi[sz]' +
    '|report|describ|review|summari[sz]|discuss|focus|highlight|characteri[sz]|identif|show|demonstrat' +
    String.raw`|provide|present|propose|studied|measured|used)\w*|^(?:to|in order to) (?:investigate|determine` +
    '|assess|evaluate|examine|compare|test|explore|describe|identify|establish|clarify|characteri[sz]e' +
    String.raw`|define|measure|study|review|summari[sz]e)\b|\b(?:the )?(?:aim|objective|purpose|goal)s? (?:of|was` +
    String.raw`|were|is)\b|^in (?:a|an|this) (?:\w+[- ]){0,3}(?:analysis|study|trial|cohort|survey|review` +
    String.raw`|meta-analysis)\b)`,
  'i',
)
/** A sentence that draws the conclusion. */
const CONCLUSION = new RegExp(
  '^(?:(?:these|our|the|together,? these|collectively,? these|taken together,? these) (?:results' +
    '|findings|data|observations|studies)|in (?:conclusion|summary)|taken together|together' +
    '|collectively|thus|therefore|overall|we conclude|we propose|we suggest|this (?:study|work' +
    String.raw`|review) (?:shows|suggests|provides|demonstrates|identifies|reveals|highlights|supports))\b`,
  'i',
)

const roleOf = (name: string): Role =>
  SECTION_ROLE[name.toLowerCase().split(/\s/)[0]] ?? (/conclusion/i.test(name) ? 'conclusion' : 'body')

export function readPaper(paper: Pick<PaperInput, 'title' | 'abstract'>): Reading {
  const title = paper.title.trim()
  const abstract = (paper.abstract ?? '').trim()
  const parts: Part[] = [{ role: 'title', text: title }]
  const sentences: { text: string; section: Role | null }[] = []
  let heading: Role | null = null
  // Flattened abstracts (OpenAlex, some publishers) run sections together: "...women.This was a randomized..."
  const lines = abstract.replace(/([a-z]{2}|\))\.([A-Z][a-z])/g, '$1. $2').split(/\n+/)
  for (const line of lines) {
    const alone = line.match(HEADING)
    if (alone) {
      heading = roleOf(alone[1])
      continue
    }
    let section = heading
    let text = line
    const label = line.match(SECTION)
    if (label) {
      section = roleOf(label[1])
      text = line.slice(label[0].length)
    }
    for (const s of splitSentences(text)) sentences.push({ text: s.text, section })
  }
  const last = sentences.length - 1
  sentences.forEach((s, i) => {
    let role: Role = s.section ?? 'body'
    if (role === 'body' || role === 'background') {
      if (AIM.test(s.text)) role = 'aim'
      else if (CONCLUSION.test(s.text) || (i === last && !s.section && i > 0)) role = 'conclusion'
      else if (!s.section && i === 0 && last >= 2) role = 'background'
    }
    parts.push({ role, text: s.text })
  })
  const join = (keep: (p: Part) => boolean) =>
    parts
      .filter(keep)
      .map((p) => p.text)
      .join(' \n ')
  return {
    title,
    abstract,
    parts,
    subject: join((p) => p.role === 'title' || p.role === 'aim' || p.role === 'conclusion'),
    body: join((p) => p.role !== 'title'),
    all: `${title} \n ${abstract}`,
  }
}
