/**
 * Claims from sentence patterns: a finding verb ("extended", "reduced", "was associated with"), the
 * lexicon entity nearest before it as subject and the first after it as object (swapped for the
 * passive "was extended by"), with organism, direction, magnitude and context read from the same
 * sentence. Aims ("to test whether...") are skipped; hedged and background sentences lose confidence.
 */
import type { LexiconEntry } from '../../lexicon/lexicon'
import type { ClaimSide, FoundClaim } from '../types'
import { compact, readAge, readDose, readDuration, readMagnitude, readN, readSex } from './details'
import { findMentions, type Mention } from './matcher'
import type { Sentence } from './sentences'

type Pattern = { re: RegExp; relation: string; direction: FoundClaim['direction'] }

const PATTERNS: Pattern[] = [
  { re: /\b(?:did not|does not|do not|failed to|had no|has no|no significant)\b[^.;]{0,30}?\b(?:affect|change|alter|effect|difference|improve|reduce|increase|extend)\w*/i, relation: 'no_effect_on', direction: 'no_change' },
  { re: /\b(?:extend(?:s|ed|ing)?|prolong(?:s|ed|ing)?|lengthen(?:s|ed)?|increas(?:es|ed|ing))\b(?=[^.;]{0,40}?\b(?:life-?span|longevity|survival|health-?span)\b)/i, relation: 'extends_lifespan', direction: 'increase' },
  { re: /\b(?:protect(?:s|ed|ing)? against|protective against|protect(?:s|ed)?(?= [\w -]{1,40} from)|prevent(?:s|ed|ing)?)\b/i, relation: 'protects_against', direction: 'decrease' },
  { re: /\b(?:increas(?:es|ed)|elevat(?:es|ed)|enhanc(?:es|ed)|up-?regulat(?:es|ed)|promot(?:es|ed)|induc(?:es|ed)|activat(?:es|ed)|improv(?:es|ed)|restor(?:es|ed)|boost(?:s|ed)|augment(?:s|ed)|stimulat(?:es|ed))\b/i, relation: 'increases', direction: 'increase' },
  { re: /\b(?:reduc(?:es|ed)|decreas(?:es|ed)|lower(?:s|ed)|attenuat(?:es|ed)|suppress(?:es|ed)|inhibit(?:s|ed)|down-?regulat(?:es|ed)|impair(?:s|ed)|diminish(?:es|ed)|alleviat(?:es|ed)|ameliorat(?:es|ed)|block(?:s|ed)|abolish(?:es|ed)|delay(?:s|ed)|mitigat(?:es|ed)|shorten(?:s|ed))\b/i, relation: 'decreases', direction: 'decrease' },
  { re: /\b(?:(?:was|were|is|are) (?:positively |negatively |inversely |significantly |strongly )?(?:associated|correlated) with|linked to|predict(?:s|ed))\b/i, relation: 'associated_with', direction: null },
]

const AIM = /\b(?:this study|this work|we) (?:investigated|examined|explored|evaluated|assessed)\b|\b(whether|to investigate|to determine|to examine|to assess|to explore|we hypothesi[sz]ed|aim(?:s|ed)? to|here we (?:test|ask)|remains? unclear|is unknown|are unknown)\b/i
const HEDGE = /\b(may|might|could|suggest(?:s|ed)?|potential(?:ly)?|possibly|likely)\b/i
const BACKGROUND = /\b(has been|have been|previous(?:ly)?|known to|is known|are known|it is well)\b/i
const FINDING = /\b(we (?:found|show|showed|demonstrate|demonstrated|observed|report)|our (?:results|data|findings)|results (?:show|showed|indicate|revealed)|in conclusion)\b/i
const PASSIVE_BEFORE = /\b(?:was|were|is|are|been|be)\s+(?:\w+ly\s+)?$/i
/** Organisms and tissues say where, not what: they are context, never a claim's subject or object. */
const SIDE_TYPES = new Set(['intervention', 'gene', 'pathway', 'hallmark', 'phenotype', 'disease', 'biomarker'])

export type ClaimSetting = {
  organism: string | null // latin name of the paper's main organism
  design: string | null
  evidenceLevel: string | null
  preprint: boolean
  review: boolean
}

const side = (m: Mention): ClaimSide => ({ text: m.text, entity: { type: m.entry.type, key: m.entry.key, name: m.entry.name, ids: m.entry.ids as Record<string, string> } })

/** Words that cannot stand for a subject or object on their own. */
const FILLER = /^(?:the|this|these|those|that|a|an|in|our|its|their|both|it|they|we|which|also|further|furthermore|moreover|additionally|however|thus|therefore|not|no|was|were|is|are|been|be|has|have|had|treatment|with|of|\w+ly)$/i

/** A short noun phrase from `words`, trimmed of filler at both ends; null when nothing meaningful is left. */
function phrase(words: string[], max: number): ClaimSide | null {
  let start = 0
  let end = words.length
  while (start < end && FILLER.test(words[start])) start++
  while (end > start && FILLER.test(words[end - 1])) end--
  const kept = words.slice(start, end)
  if (kept.length === 0 || kept.length > max || !kept.some((w) => /[a-z]{3}|[A-Z0-9]{2}/.test(w))) return null
  return { text: kept.join(' '), entity: null }
}

/** The words just before the verb, when no lexicon entity stands there (kept short or dropped). */
function phraseBefore(text: string): ClaimSide | null {
  const clause = text.split(/[,;:(]|\b(?:that|which|and|whereas|while)\b/i).pop()!.trim()
  return phrase(clause.split(/\s+/).filter(Boolean), 5)
}

function phraseAfter(text: string): ClaimSide | null {
  const clause = text.split(/[,;:.(]|\b(?:in|by|and|through|via|compared|when|while|whereas|after|during|from)\b/i)[0].trim()
  return phrase(clause.split(/\s+/).filter(Boolean), 6)
}

export function latinName(entry: LexiconEntry): string {
  const binomial = [entry.name, ...entry.synonyms].find((n) => /^[A-Z][a-z]+ [a-z]+$/.test(n))
  return binomial ?? entry.name
}

/**
 * The mentions inside each sentence, with offsets relative to the sentence. Mentions are found once in
 * the whole text, so an abbreviation defined in one sentence ("nicotinamide riboside (NR)") is read in
 * the next; without `mentions` the text is rebuilt from the sentences' offsets.
 */
function mentionsBySentence(sentences: Sentence[], mentions?: Mention[]): Mention[][] {
  if (!mentions) {
    let text = ''
    for (const s of [...sentences].sort((a, b) => a.start - b.start)) text = text.padEnd(s.start, ' ').slice(0, s.start) + s.text
    mentions = findMentions(text)
  }
  return sentences.map((s) => mentions.filter((m) => m.start >= s.start && m.end <= s.start + s.text.length)
    .map((m) => ({ ...m, start: m.start - s.start, end: m.end - s.start })))
}

/** Claims from `sentences`; `mentions` are the lexicon mentions of the text they were split from, when known. */
export function extractClaims(sentences: Sentence[], setting: ClaimSetting, limit = 6, textMentions?: Mention[]): FoundClaim[] {
  const out: FoundClaim[] = []
  const bySentence = mentionsBySentence(sentences, textMentions)
  sentences.forEach((sentence, index) => {
    if (out.length >= limit || AIM.test(sentence.text)) return
    const text = sentence.text
    // The verb that comes first carries the sentence's main finding; ties go to the more specific pattern.
    const pattern = PATTERNS.map((p) => ({ p, m: text.match(p.re) })).filter((x) => x.m)
      .sort((a, b) => a.m!.index! - b.m!.index!)[0]
    if (!pattern?.m) return
    const verbStart = pattern.m.index!
    const verbEnd = verbStart + pattern.m[0].length
    const mentions = bySentence[index]
    const before = mentions.filter((m) => m.end <= verbStart && SIDE_TYPES.has(m.entry.type))
    const after = mentions.filter((m) => m.start >= verbEnd && SIDE_TYPES.has(m.entry.type))
    const passive = PASSIVE_BEFORE.test(text.slice(0, verbStart)) && /^\s+by\b/i.test(text.slice(verbEnd))
    let subjectM: Mention | undefined = before.at(-1)
    let objectM: Mention | undefined = after[0]
    if (passive) [subjectM, objectM] = [after[0], before.at(-1)]
    if (pattern.p.relation === 'extends_lifespan') {
      objectM = mentions.find((m) => m.start >= verbEnd && m.entry.type === 'phenotype') ?? objectM
    }
    const subject = subjectM ? side(subjectM) : phraseBefore(text.slice(0, verbStart))
    const object = objectM ? side(objectM) : phraseAfter(text.slice(verbEnd))
    if (!subject || !object || (!subject.entity && !object.entity)) return
    if (subject.entity && object.entity && subject.entity.key === object.entity.key) return
    const organismM = mentions.find((m) => m.entry.type === 'organism')
    const tissueM = mentions.find((m) => m.entry.type === 'tissue')
    const magnitude = readMagnitude(text)
    let confidence = 0.45 + (subject.entity ? 0.15 : 0) + (object.entity ? 0.15 : 0) + (magnitude ? 0.05 : 0)
    if (FINDING.test(text) || index >= sentences.length - 3) confidence += 0.1
    if (HEDGE.test(text)) confidence -= 0.15
    if (BACKGROUND.test(text) || (index === 0 && sentences.length > 2)) confidence -= 0.15
    if (setting.review) confidence -= 0.1
    out.push({
      subject,
      relation: pattern.p.relation,
      object,
      organism: organismM ? latinName(organismM.entry) : setting.organism,
      context: compact({
        sex: readSex(text), age: readAge(text), tissue: tissueM?.entry.name ?? null, dose: readDose(text),
        duration: readDuration(text), n: readN(text), subject_type: subject.entity?.type ?? null,
        object_type: object.entity?.type ?? null, primary: out.length === 0 ? true : null, design: setting.design,
        evidence_level: setting.evidenceLevel, preprint: setting.preprint ? true : null,
      }),
      direction: pattern.p.direction,
      magnitude,
      evidence: text,
      confidence: Math.round(Math.max(0.1, Math.min(0.95, confidence)) * 100) / 100,
    })
  })
  return out
}
