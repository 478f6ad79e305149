/**
 * Claims from sentence patterns: a finding verb ("extended", "reduced", "was associated with"), the
 * lexicon entity nearest before it as subject and the first after it as object (swapped for the
 * passive "was extended by"), with organism, direction, magnitude and context read from the same
 * sentence. Aims ("to test whether...") are skipped; hedged and background sentences lose confidence.
 */
import type { LexiconEntry } from '../../lexicon/lexicon'
import type { ClaimSide, FoundClaim } from '../types'
import { compact, readAge, readDose, readDuration, readMagnitude, readN, readSex } from './details'
import { findMentions, type Mention } from '../../lexicon/matcher'
import { resolvedSide } from '../side-entity'
import {
  FILLER, GENERIC, NOT_A_START, VERB, balanced, lostItsNoun, objectContinuation, subjectLead, wordsOf,
} from './side-phrase'
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

const NEGATION = /\b(?:not|no|never|neither|nor|without)\b/i
/** A method or a hypothesis states no finding ("We used conditional deletion of Tsc1 to ...", "Hypothesis: ..."). */
const METHOD = /\b(?:we used|was performed|were performed|hypothesis:|investigations:|measurement of)/i

/** The agent of a hyphenated participle, whose object follows ("Liraglutide-induced autophagy"): a name. */
const HYPHEN_AGENT = /(?:^|[\s(])[\p{L}\p{N}][\p{L}\p{N}/ -]*[-‐–]$/u
/**
 * The first match of a finding verb. A hyphenated participle ("Liraglutide-induced autophagy") reads as its verb,
 * the name before it acting on the noun after it; other verbs are found as written.
 */
function verbMatch(re: RegExp, text: string): { index: number; text: string } | null {
  let from = 0
  while (from < text.length) {
    const m = re.exec(text.slice(from))
    if (!m) return null
    const index = from + m.index
    if (index === 0 || !/[-‐–]/.test(text[index - 1]) || HYPHEN_AGENT.test(text.slice(0, index))) {
      return { index, text: m[0] }
    }
    from = index + m[0].length
  }
  return null
}

export type ClaimSetting = {
  organism: string | null // latin name of the paper's main organism
  design: string | null
  evidenceLevel: string | null
  preprint: boolean
  review: boolean
}

const entityOf = (m: Mention): ClaimSide['entity'] => ({ type: m.entry.type, key: m.entry.key, name: m.entry.name, ids: m.entry.ids as Record<string, string> })

/**
 * A short noun phrase from `words`, trimmed of filler at both ends; null when nothing meaningful is left, or when what
 * is left is no noun phrase: a clause (it holds a verb), a circumstance ("between ..."), a word cut at a hyphen
 * ("oncogene-" of "oncogene- and therapy-induced"), or unbalanced brackets.
 */
function phrase(words: string[], max: number): ClaimSide | null {
  let start = 0
  let end = words.length
  while (start < end && FILLER.test(words[start])) start++
  while (end > start && FILLER.test(words[end - 1])) end--
  const kept = balanced(words.slice(start, end))
  if (!kept || kept.length === 0 || kept.length > max || !kept.some((w) => /[a-z]{3}|[A-Z0-9]{2}/.test(w))) return null
  if (NOT_A_START.test(kept[0]) || kept.some((w) => VERB.test(w)) || /[-–/]$/.test(kept.at(-1)!) || /^[-–/]/.test(kept[0])) return null
  if (FILLER.test(kept[0]) || FILLER.test(kept.at(-1)!) || (kept.length === 1 && GENERIC.test(kept[0]))) return null
  return { text: kept.join(' '), entity: null }
}

/** The words just before the verb, when no lexicon entity stands there (kept short or dropped). */
function phraseBefore(text: string): ClaimSide | null {
  const clause = text.split(/[,;:(]|\b(?:that|which|and|whereas|while)\b/i).pop()!.trim()
  const side = phrase(wordsOf(clause), 5)
  return side && !lostItsNoun(side.text) ? resolvedSide(side, SIDE_TYPES) : null
}

/** A clause break between a side and its verb, or inside a phrase: what stands beyond it belongs to another clause. */
const CUT_AFTER = /[,;:.(]|\b(?:in|by|and|or|but|through|via|compared|when|while|whereas|after|during|from|than|that|which|at|among|between|with|without|despite|following|to|for|as|versus|vs|if|whether|because|although|since|where|who|whose|regardless|independently)\b/i

function phraseAfter(text: string): ClaimSide | null {
  const start = text.replace(/^\s*(?:on|of|in)\s+/i, ' ') // "no effect on X", "an increase of X"
  const cut = CUT_AFTER.exec(start)
  let clause = (cut ? start.slice(0, cut.index) : start).trim()
  const more = objectContinuation(start, cut ? cut.index : start.length, '', clause)
  if (more === null) return null
  if (more) clause = `${clause} ${more.trim()}`
  const side = phrase(wordsOf(clause), 6)
  return side && !lostItsNoun(side.text) ? resolvedSide(side, SIDE_TYPES) : null
}

const CLAUSE_BREAK = /[,;:()]|\b(?:that|which|and|but|or|whereas|while|although|when|than|after|before|because|since|if|then|thereby|thus)\b/i
/** Between a verb and its object only an article, a measure and "of" may stand ("increased the expression of HO-1"). */
const OBJECT_GAP = /^(?:the|a|an|of|\w+(?:ion|ity|ment|ance|ence|ness|ure|els?|ts?|ss|sis|ing|th|ize|ze))$/i
/** The most words between a mention and its verb for the mention still to be the verb's side. */
const MAX_GAP = 4

/** The words between a subject mention and its verb allow the mention to be the verb's subject: few, and no clause break. */
function adjacentBefore(gap: string): boolean {
  return !CLAUSE_BREAK.test(gap) && wordsOf(gap).length <= MAX_GAP
}

/** The words between a verb and an object mention: none, or a measure of the mention ("the levels of"), ending in "of". */
function adjacentAfter(gap: string): boolean {
  const words = wordsOf(gap)
  return words.length === 0 || (words.length <= MAX_GAP && /^of$/i.test(words.at(-1)!) && words.every((w) => OBJECT_GAP.test(w)))
}

/** Words after a mention that keep it the head of its phrase: its amount, activity or manipulation ("IL-6 levels", "TSC1 deletion"). */
const SAME_ENTITY = /^(?:expression|levels?|concentrations?|content|proteins?|mRNA|genes?|signal(?:l)?ing|activity|activation|pathway|cascade|axis|phosphorylation|transcription|promoter|deletion|knock-?out|KO|cKO|deficiency|loss|ablation|depletion|inhibition|overexpression|mutations?|mutants?|variants?|polymorphisms?|genotype|allele|status|treatment|supplementation|administration|intake|use|therapy|exposure|mice|rats|animals|cells|worms|flies)$/i

/** A word glued after a name that makes it name something else ("TNF-inhibitors", "insulin-stimulated"). */
const NAMES_ANOTHER = new RegExp(`^[-‐–](?:${[
  'inhibitors?', 'antagonists?', 'agonists?', 'blockers?', 'analog(?:ue)?s?', 'induced', 'treated', 'stimulated',
  'mediated', 'related', 'associated', 'like', 'independent', 'dependent', 'targeted', 'based', 'sensitive',
  'resistant', 'responsive',
].join('|')})\\b`, 'i')

/**
 * The side a mention stands for, its text the whole noun phrase. A mention that is half of a hyphenated word
 * ("mTOR-dependent", "Tsc1-deficient") keeps the whole word, and words after it that measure or manipulate it
 * ("IL-6 levels", "TSC1 deletion") join it, the entity staying. A mention followed by another noun is only that
 * noun's modifier ("tumor suppressors", "insulin analogues", "mTOR inhibitors"): the phrase is the side, and it
 * names no entity. `lead` is the phrase before the mention: for an object what stands between the verb and it
 * ("the expression of"), for a subject its head and modifiers (./side-phrase.ts). Null when the phrase is no noun
 * phrase (an adjective without its noun, an open bracket, a word cut at a hyphen).
 */
function mentionSide(
  text: string, m: Mention, limit: number, before: boolean, lead = '', keepsEntity = true,
): ClaimSide | null {
  // "Liraglutide-induced autophagy": the hyphen before a participle verb joins the subject to it, not to a word.
  const rest = before ? text.slice(m.end, limit).replace(/[-‐–]$/, '') : text.slice(m.end, limit)
  // A name matched across a bracket ("(mTORC1) signaling" read as "mTORC1 signaling") is written without it.
  const own = /[()[\]]/.test(m.text) && balanced(wordsOf(m.text)) === null ? m.text.replace(/[()[\]]/g, '') : m.text
  let words = wordsOf(own)
  let entity: ClaimSide['entity'] = keepsEntity ? entityOf(m) : null
  // "insulin- and leucine-stimulated mTOR signaling": the mention begins a compound whose head comes later.
  const suspended = before ? null : /^[-‐–]\s+(?:and|or)\s+[^\s,;:]+[-‐–][^\s,;:]+/.exec(rest)
  const offset = suspended ? suspended[0].length : 0
  if (suspended) {
    words = [...words.slice(0, -1), words.at(-1)! + suspended[0]]
    entity = null
  }
  const after = rest.slice(offset)
  const cut = before ? after.length : (CUT_AFTER.exec(after)?.index ?? after.length)
  let tail = [...after.slice(0, cut).matchAll(/\S+/g)]
    .map((t) => ({ w: t[0], end: m.end + offset + t.index! + t[0].length }))
  let end = m.end + offset
  const leadWords = wordsOf(lead)
  while (leadWords.length && FILLER.test(leadWords[0]) && !/^treatment$/i.test(leadWords[0])) leadWords.shift()
  // A lead glued to the mention ("NS-" of "NS-Pten", "(" of "sirtuin6 (SIRT6)") is one word with it.
  if (leadWords.length && lead && !/\s$/.test(lead)) words = [leadWords.pop()! + words[0], ...words.slice(1)]
  // An attached tail ("-dependent", ")") continues the mention's own word.
  if (tail.length && !/^\s/.test(after) && !suspended) {
    const sofar = [...leadWords, ...words].join(' ')
    const open = sofar.split('(').length - sofar.split(')').length
    if (/^[)\]]/.test(tail[0].w) && open > 0) {
      // "knockdown of sirtuin6 (SIRT6)": the bracket of the abbreviation closes.
      words = [...words.slice(0, -1), words.at(-1)! + tail[0].w.replace(/[,.;:]+$/, '')]
      end = tail[0].end
      tail = before ? [] : tail.slice(1)
    } else if (/^[)\]]/.test(tail[0].w)) tail = [] // "(mTOR) signaling": the phrase it stands in began before it.
    else {
      // "TNF-inhibitors", "insulin-stimulated": a word that only holds the name names something else.
      if (NAMES_ANOTHER.test(tail[0].w)) entity = null
      words = [...words.slice(0, -1), words.at(-1)! + tail[0].w]
      end = tail[0].end
      tail = tail.slice(1)
    }
  }
  const kept: string[] = []
  for (const { w, end: at } of tail) {
    const bare = w.replace(/[),.;:]+$/, '')
    if (kept.length >= 3 || VERB.test(bare) || FILLER.test(bare) || NOT_A_START.test(bare) || /ed$/i.test(bare) || !/^[\p{L}\p{N}]/u.test(bare)) break
    if (!SAME_ENTITY.test(bare)) entity = null
    kept.push(w)
    end = at
  }
  if (leadWords.length && !keepsEntity) entity = null
  let whole = balanced([...leadWords, ...words, ...kept])
  if (!whole || /[-–/]$/.test(whole.at(-1)!)) return null
  if (!before) {
    const more = objectContinuation(text, end, lead, whole.join(' '))
    if (more === null) return null
    if (more) {
      whole = [...whole, ...wordsOf(more)]
      // "STAT3 expression and phosphorylation" still names STAT3; "CHOP and ATF4 expression" names two things.
      if (!wordsOf(more).every((w) => /^(?:and|or)$/i.test(w) || SAME_ENTITY.test(w))) entity = null
    }
  }
  const phrase = whole.join(' ')
  if (whole.length > 8 || (phrase !== own && lostItsNoun(phrase))) return null
  return entity ? { text: phrase, entity } : resolvedSide({ text: phrase, entity: null }, SIDE_TYPES)
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
    if (out.length >= limit || AIM.test(sentence.text) || METHOD.test(sentence.text)) return
    const text = sentence.text
    // The verb that comes first carries the sentence's main finding; ties go to the more specific pattern.
    const pattern = PATTERNS.map((p) => ({ p, m: verbMatch(p.re, text) })).filter((x) => x.m)
      .sort((a, b) => a.m!.index - b.m!.index)[0]
    if (!pattern?.m) return
    const verbStart = pattern.m.index
    const verbEnd = verbStart + pattern.m.text.length
    // "cognitive deficits induced in HD": a participle after its noun, with no object, says where, not what it acts on.
    if (/ed$/i.test(pattern.m.text) && !PASSIVE_BEFORE.test(text.slice(0, verbStart)) &&
      /^\s+(?:in|at|during|among|after|from|with|within)\b/i.test(text.slice(verbEnd))) return
    const mentions = bySentence[index]
    const before = mentions.filter((m) => m.end <= verbStart && SIDE_TYPES.has(m.entry.type))
    const after = mentions.filter((m) => m.start >= verbEnd && SIDE_TYPES.has(m.entry.type))
    const passive = PASSIVE_BEFORE.test(text.slice(0, verbStart)) && /^\s+by\b/i.test(text.slice(verbEnd))
    // "X was increased in Y" names no agent: what increased it is not said.
    if (PASSIVE_BEFORE.test(text.slice(0, verbStart)) && !passive && pattern.p.relation !== 'associated_with') return
    // A side is the mention next to its verb: one further off, or past a clause break, is another clause's.
    const lastBefore = before.at(-1)
    const subjectNear = lastBefore && adjacentBefore(text.slice(lastBefore.end, verbStart)) ? lastBefore : undefined
    const firstAfter = after[0]
    const objectGap = firstAfter ? text.slice(verbEnd, firstAfter.start) : ''
    const objectNear = firstAfter && adjacentAfter(objectGap) ? firstAfter : undefined
    const longForm = subjectNear &&
      mentions.find((m) => m.end <= subjectNear.start && /^\s*\($/.test(text.slice(m.end, subjectNear.start)))
    // "inhibition of insulin-stimulated IRS1 phosphorylation": the name before a hyphenated participle is its agent
    // alone; the words before it belong to the phrase the participle modifies.
    const hyphenVerb = /[-‐–]$/.test(text.slice(0, verbStart))
    if (hyphenVerb && subjectNear?.end !== verbStart - 1) return
    const lead = !subjectNear ? null
      : hyphenVerb ? { lead: '', keepsEntity: true } : subjectLead(text, subjectNear, longForm)
    let subject = subjectNear
      ? (lead ? mentionSide(text, subjectNear, verbStart, true, lead.lead, lead.keepsEntity) : null)
      : phraseBefore(text.slice(0, verbStart))
    let object = objectNear ? mentionSide(text, objectNear, text.length, false, objectGap) : phraseAfter(text.slice(verbEnd))
    if (pattern.p.relation === 'extends_lifespan') {
      const outcome = mentions.find((m) => m.start >= verbEnd && m.entry.type === 'phenotype')
      if (outcome) object = { text: outcome.text, entity: entityOf(outcome) }
    }
    if (passive) {
      // "Y was reduced by X": X, right after "by", acts on Y.
      const agent = firstAfter && /^\s+by\s+(?:the\s+)?$/i.test(objectGap) ? firstAfter : undefined
      ;[subject, object] = [agent ? mentionSide(text, agent, text.length, false) : null, subject]
    }
    if (!subject || !object || (!subject.entity && !object.entity)) return
    // "obesity was not associated with elevated HCC": a negation before the verb turns the claim round.
    const beforeVerb = text.slice(subjectNear ? subjectNear.end : Math.max(0, verbStart - 30), verbStart)
    if (pattern.p.relation !== 'no_effect_on' && NEGATION.test(beforeVerb)) return
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
