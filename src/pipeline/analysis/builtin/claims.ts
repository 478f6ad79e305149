/**
 * Claims from sentence patterns: a finding verb ("extended", "reduced", "was associated with"), the
 * lexicon entity nearest before it as subject and the first after it as object (swapped for the
 * passive "was extended by"), with organism, direction, magnitude and context read from the same
 * sentence. Aims ("to test whether...") are skipped; hedged and background sentences lose confidence.
 */
import type { LexiconEntry } from '../../../lexicon/lexicon'
import type { ClaimSide, FoundClaim } from '../types'
import { compact, readAge, readDose, readDuration, readMagnitude, readN, readSex } from './details'
import { findMentions, longFormBefore, type Mention } from '../../../lexicon/matcher'
import { resolvedSide, sideEntity } from '../side-entity'
import {
  FILLER,
  GENERIC,
  MANIPULATION,
  NOT_A_START,
  VERB,
  balanced,
  holdsClause,
  lostItsNoun,
  objectContinuation,
  subjectLead,
  wordsOf,
} from './side-phrase'
import type { Sentence } from './sentences'

type Pattern = { re: RegExp; relation: string; direction: FoundClaim['direction'] }

const PATTERNS: Pattern[] = [
  {
    re: new RegExp(
      String.raw`\b(?:did not|does not|do not|failed to|had no|has no|no significant)\b[^.;]{0,30}?\b(?:affect` +
        String.raw`|change|alter|effect|difference|improve|reduce|increase|extend)\w*`,
      'i',
    ),
    relation: 'no_effect_on',
    direction: 'no_change',
  },
  {
    re: new RegExp(
      String.raw`\b(?:extend(?:s|ed|ing)?|prolong(?:s|ed|ing)?|lengthen(?:s|ed)?|increas(?:es|ed` +
        String.raw`|ing))\b(?=(?:(?!\band\b)[^.;,]){0,40}?\b(?:life-?span|longevity|survival|health-?span)\b)`,
      'i',
    ),
    relation: 'extends_lifespan',
    direction: 'increase',
  },
  {
    re: new RegExp(
      String.raw`\b(?:protect(?:s|ed|ing)? against|protective against|protect(?:s|ed)?(?= [\w -]{1,40} from)` +
        String.raw`|prevent(?:s|ed|ing)?)\b`,
      'i',
    ),
    relation: 'protects_against',
    direction: 'decrease',
  },
  {
    re: new RegExp(
      String.raw`\b(?:increas(?:es|ed)|elevat(?:es|ed)|enhanc(?:es|ed)|up-?regulat(?:es|ed)|promot(?:es|ed)` +
        '|induc(?:es|ed)|activat(?:es|ed)|improv(?:es|ed)|restor(?:es|ed)|boost(?:s|ed)|augment(?:s|ed)' +
        String.raw`|stimulat(?:es|ed))\b`,
      'i',
    ),
    relation: 'increases',
    direction: 'increase',
  },
  {
    re: new RegExp(
      String.raw`\b(?:reduc(?:es|ed)|decreas(?:es|ed)|lower(?:s|ed)|attenuat(?:es|ed)|suppress(?:es|ed)` +
        '|inhibit(?:s|ed)|down-?regulat(?:es|ed)|impair(?:s|ed)|diminish(?:es|ed)|alleviat(?:es|ed)' +
        '|ameliorat(?:es|ed)|block(?:s|ed)|abolish(?:es|ed)|delay(?:s|ed)|mitigat(?:es|ed)|shorten(?:s' +
        String.raw`|ed))\b`,
      'i',
    ),
    relation: 'decreases',
    direction: 'decrease',
  },
  {
    re: new RegExp(
      String.raw`\b(?:(?:was|were|is|are) (?:positively |negatively |inversely |significantly ` +
        '|strongly )?(?:associated|correlated)(?: positively| negatively| inversely| significantly' +
        String.raw`| strongly)? with|correlates? with|linked to|predict(?:s|ed))\b`,
      'i',
    ),
    relation: 'associated_with',
    direction: null,
  },
]

const AIM = new RegExp(
  String.raw`\b(?:this study|this work|we) (?:investigated|examined|explored|evaluated|assessed)\b|\b(whether` +
    '|to investigate|to determine|to examine|to assess|to explore|to study|to evaluate|to test' +
    '|to identify|to understand|to characteri[sz]e|in order to|we hypothesi[sz]ed|aim(?:s|ed)? to' +
    String.raw`|here we (?:test|ask)|remains? unclear|is unknown|are unknown)\b`,
  'i',
)
const HEDGE = /\b(may|might|could|suggest(?:s|ed)?|potential(?:ly)?|possibly|likely)\b/i
const BACKGROUND = /\b(has been|have been|previous(?:ly)?|known to|is known|are known|it is well)\b/i
const FINDING = new RegExp(
  String.raw`\b(we (?:found|show|showed|demonstrate|demonstrated|observed|report)|our (?:results|data|findings)` +
    String.raw`|results (?:show|showed|indicate|revealed)|in conclusion)\b`,
  'i',
)
const PASSIVE_BEFORE = /\b(?:was|were|is|are|been|be)\s+(?:\w+ly\s+)?$/i
/** Organisms and tissues say where, not what: they are context, never a claim's subject or object. */
const SIDE_TYPES = new Set(['intervention', 'gene', 'pathway', 'hallmark', 'phenotype', 'disease', 'biomarker'])

const NEGATION = /\b(?:not|no|never|neither|nor|without)\b/i
/** A method or a hypothesis states no finding ("We used conditional deletion of Tsc1 to ...", "Hypothesis: ..."). */
const METHOD = /\b(?:we used|was performed|were performed|hypothesis:|investigations:|measurement of)/i

/**
 * A participle used as an adjective, not as the sentence's verb: "an increased risk", "characterized by decreased
 * cholinergic tone", "patients with increased bone density", "had reduced TSC2 expression", "osteoarthritis or
 * increased knee pain". The noun before it is no agent of it.
 */
const ADJECTIVAL = new RegExp(
  String.raw`(?:^|[\s(])(?:a|an|the|with|of|in|to|for|from|into|by|having|present|and|or|its|their|more|less` +
    String.raw`|meet|despite|without)\s+(?:\w+ly\s+)?$`,
  'i',
)
/** Words after which "increases", "decreases" are nouns ("larger increases in BMD", "the decreases in"). */
const NOUN_BEFORE = new RegExp(
  String.raw`(?:^|[\s(])(?:the|these|those|such|no|any|similar|larger|greater|smaller|higher|lower|bigger` +
    String.raw`|significant|marked|modest|small|large|substantial|dramatic|further|slight|major|minor|mean|median` +
    String.raw`|in|of|with|[\w-]+-fold)\s+(?:\w+ly\s+)?$`,
  'i',
)
/** "led to increased", "resulted in prolonged": the participle is the effect of a causal verb, the claim's own. */
const CAUSAL = new RegExp(
  String.raw`\b(?:(?:lead|leads|led|leading|result|results|resulted|resulting|contributes?` +
    String.raw`|contributed)\s+(?:\w+ly\s+)?(?:to|in)|(?:displayed|showed|exhibited|had|have|has|show|shows` +
    String.raw`|display|exhibit))\s+(?:(?:the|a|an)\s+)?(?:\w+ly\s+)?$`,
  'i',
)
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
    const adjective =
      /^\w+ed$/i.test(m[0]) && ADJECTIVAL.test(text.slice(0, index)) && !CAUSAL.test(text.slice(0, index))
    // "Larger increases in BMD", "the decreases in": a plural noun after its article or adjective is no verb.
    const noun =
      /^(?:increases|decreases|delays|blocks|boosts)$/i.test(m[0]) &&
      NOUN_BEFORE.test(text.slice(0, index)) &&
      !/\b(?:result(?:s|ed)?|leads?|led)\s+(?:in|to)\s+(?:\w+\s+)?$/i.test(text.slice(0, index))
    if (
      !adjective &&
      !noun &&
      (index === 0 || !/[-‐–]/.test(text[index - 1]) || HYPHEN_AGENT.test(text.slice(0, index)))
    ) {
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

const entityOf = (m: Mention): ClaimSide['entity'] => ({
  type: m.entry.type,
  key: m.entry.key,
  name: m.entry.name,
  ids: m.entry.ids as Record<string, string>,
})

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
  // "Both therapies", "This phosphorylation", "targets such as": an anaphor or a comparison points elsewhere, and the
  // phrase says nothing on its own; so does a lone comparative ("Larger", "best").
  const determiner = words[start - 1] ?? ''
  if (
    /^(?:this|these|those|such)$/i.test(determiner) ||
    (/^both$/i.test(determiner) && !kept.some((w) => /^(?:and|or)$/i.test(w))) ||
    kept.slice(1).some((w) => /^(?:this|these|those|such)$/i.test(w)) ||
    (kept.length === 1 && COMPARATIVE.test(kept[0])) ||
    holdsClause(kept)
  )
    return null
  if (
    NOT_A_START.test(kept[0]) ||
    kept.some((w) => VERB.test(w)) ||
    /[-–/]$/.test(kept.at(-1)!) ||
    /^[-–/]/.test(kept[0])
  )
    return null
  if (FILLER.test(kept[0]) || FILLER.test(kept.at(-1)!) || (kept.length === 1 && GENERIC.test(kept[0]))) return null
  return { text: kept.join(' '), entity: null }
}

const COMPARATIVE =
  /^(?:larger|smaller|greater|higher|lower|bigger|longer|shorter|better|best|worse|worst|fewer|more|less|most|least)$/i

/** What may stand before a long form whose abbreviation stays the subject: an article, a class or a measure. */
const PLAIN_BEFORE_ABBREVIATION = new RegExp(
  String.raw`^(?:(?:the|a|an)\s+)?(?:(?:[\w-]+\s+)?(?:kinase|protein|gene|enzyme|factor|hormone|cytokine` +
    '|receptor|suppressor|regulator)|(?:expression|levels?|activity|amounts?|concentrations?' +
    String.raw`|phosphorylation)\s+of(?:\s+the)?)?$`,
  'i',
)

/** The words just before the verb, when no lexicon entity stands there (kept short or dropped). */
function phraseBefore(text: string): ClaimSide | null {
  const parts = text.split(/([,;:(]|\b(?:that|which|and|whereas|while)\b)/i)
  const clause = parts.pop()!.trim()
  // "fibroblasts (MEF) decreased": the bracket abbreviates a phrase whose head may stand before it; only a name the
  // lexicon knows ("mammalian target of rapamycin (mTOR)") is taken for it.
  const bracket = parts.at(-1) === '('
  // "the addition of vitamin D and calcium increases": the "and" joins the complements of one head.
  if (/^and$/i.test(parts.at(-1) ?? '') && /\b(?:of|in|with|by|for)\s+(?:\S+\s+){0,3}$/i.test(parts.at(-2) ?? ''))
    return null
  // "Deletion of Tsc1 in MEF decreased": the words before the phrase, in its clause, are its head (phrase() keeps at
  // most five words, so a longer subject is cut at its start).
  const before = wordsOf(clause)
  const side = phrase(before, 5)
  if (!side) return null
  const kept = wordsOf(side.text)
  const lead = before.slice(0, before.length - kept.length)
  while (lead.length && FILLER.test(lead.at(-1)!) && !/^(?:of|in|by|with|from|for|on|at|to)$/i.test(lead.at(-1)!))
    lead.pop()
  // "Treatment with PMA/Io" is the treatment's; "in MEF" is a circumstance of a head before it.
  if (
    lead.length &&
    /^(?:of|in|by|with|from|for|on|at|to|without|among|between)$/i.test(lead.at(-1)!) &&
    !(
      lead.length === 2 &&
      /^with$/i.test(lead[1]) &&
      /^(?:treatment|pretreatment|incubation|supplementation)$/i.test(lead[0])
    )
  )
    return null
  if (!isThing(side.text) || lostItsNoun(side.text)) return null
  const resolved = headEntity(resolvedSide(side, SIDE_TYPES))
  if (bracket && !resolved.entity) return null
  if (bracket) {
    // "Mutational inactivation of ... tuberous sclerosis complex 2 (TSC2) activates", "knockdown tuberous sclerosis
    // complex 1 (TSC1) activates": words of the subject before the long form make it another thing.
    const open = text.lastIndexOf('(')
    const form = longFormBefore(text, open, side.text)
    const head = form ? text.slice(0, text.lastIndexOf(form, open)) : ''
    const inClause = head
      .split(/[,;:]|\b(?:that|which|whereas|while)\b/i)
      .pop()!
      .trim()
    // An article, a class ("the kinase mammalian target of rapamycin (mTOR)") or a measure ("the expression of glucose
    // transporter 3 (Glut3)") leaves the abbreviation the subject.
    if (!form || !PLAIN_BEFORE_ABBREVIATION.test(inClause)) return null
  }
  return resolved
}

/** Who was studied, how many, or a share of them, is no cause or effect: "33% of cases", "703 eligible patients". */
const POPULATION = new RegExp(
  '^(?:patients?|participants?|subjects?|individuals?|people|persons?|cases?|controls?|women|men' +
    '|children|adults?|adolescents?|infants?|volunteers?|respondents?|cohorts?|samples?|groups?)$',
  'i',
)
function isThing(text: string): boolean {
  const words = wordsOf(text)
  // "33% of cases", "n = 74": a share or a count.
  if (/^\d+(?:[.,]\d+)?%?$/.test(words[0]) || /[%=]/.test(text)) return false
  return !POPULATION.test(words.at(-1)!.replace(/[),.;:]+$/, '')) && !POPULATION.test(words[0])
}

/**
 * A phrase the matcher did not read that measures or manipulates one gene or compound names it, as "TSC1 deletion"
 * does: the name first or after words that say where or in what state ("Rheb overexpression", "cardiac UCP3
 * expression", "rapamycin injection", "MMP-2 production and activity"), or the complement of a measure or a
 * manipulation ("levels of phospho-GSK3β", "ectopic expression of PDGFRα", "BMD of the lumbar spine").
 */
function headEntity(side: ClaimSide): ClaimSide {
  if (side.entity) return side
  const words = wordsOf(side.text)
  const named = (w: string) => sideEntity(w.replace(/[,;:]+$/, ''), HEAD_TYPES)
  const headWord = (w: string) =>
    SAME_ENTITY.test(w) || MEASURE.test(w) || MANIPULATION.test(w) || /^(?:kinase|and|or)$/i.test(w)
  // A place after the measured name ("LTβR levels in spleen stroma", "BMD of the lumbar spine") is no other thing.
  const siteOf = /^(?:in|of|at)$/i
  for (let i = 0; i < words.length; i++) {
    const before = words.slice(0, i)
    const plain = (w: string, k: number) => (k === 0 ? /^[A-Za-z][a-z-]*$/ : /^[a-z][a-z-]*$/).test(w)
    if (!before.every((w, k) => plain(w, k) && !FILLER.test(w) && !VERB.test(w))) break
    let end = i + 1
    while (end < words.length && headWord(words[end])) end++
    const after = words.slice(end)
    const siteAfter =
      after.length === 0 ||
      (siteOf.test(after[0]) &&
        after.length <= 4 &&
        after.slice(1).every((w) => !VERB.test(w) && !siteOf.test(w) && /^[\p{L}\p{N}]/u.test(w)))
    // The name alone, or with the head words after it; with words before it only if a head word follows.
    if (siteAfter && (end > i + 1 || i === 0) && !/^(?:and|or)$/i.test(words[end - 1])) {
      const entity = named(words[i])
      // A measure alone before its site ("BMD of the lumbar spine"); a gene needs its head word ("HCCs in pregnancy"
      // are hair cortisol concentrations, no gene).
      if (entity && (end > i + 1 || (after.length > 0 && entity.type === 'biomarker') || words.length === 1))
        return { text: side.text, entity }
    }
  }
  // "levels of phospho-GSK3β", "blood concentration of metoprolol", "ubiquitination of TOP2A".
  const of = words.findIndex((w) => /^of$/i.test(w))
  if (of > 0 && of <= 3 && headWord(words[of - 1]) && !/^(?:and|or|kinase)$/i.test(words[of - 1])) {
    const name = words[of + 1] && /^the$/i.test(words[of + 1]) ? of + 2 : of + 1
    const rest = words.slice(name + 1)
    const siteAfter =
      rest.length === 0 ||
      (/^(?:in|at)$/i.test(rest[0]) && rest.length <= 4 && !rest.slice(1).some((w) => VERB.test(w)))
    const entity = words[name] && siteAfter ? named(words[name]) : null
    if (entity && words.slice(0, of).every((w) => !VERB.test(w))) return { text: side.text, entity }
  }
  return side
}
const HEAD_TYPES = new Set(['gene', 'intervention', 'biomarker'])

/** Heads that are about what their preposition names: "alterations in", "resistance to", "formation between". */
const RELATIVE_HEAD = new RegExp(
  '^(?:alterations?|changes?|differences?|abnormalit(?:y|ies)|defects?|deficits?|resistance' +
    '|susceptibility|sensitivity|responses?|formation|access|binding|exposure|transition|shift' +
    '|contributions?|involvement|dependence|requirements?|increase|decrease|reduction|rise|decline' +
    '|elevation)$',
  'i',
)

/** "blocked the ability of amino acids to activate S6K1": what the capacity is for follows, out of the phrase. */
const CAPACITY = /^(?:ability|capacity|failure|propensity|tendency|potential|inability|capability)$/i

const LIFESPAN = /\b(?:life-?span|longevity|survival|health-?span)\b/i

/** Heads that name a change or a fault: restoring one undoes it ("restored the phenotypic changes"). */
const UNDONE = new RegExp(
  '^(?:changes?|alterations?|phenotypes?|abnormalit(?:y|ies)|defects?|deficits?|impairments?|dysfunction' +
    '|effects?|shifts?|disturbances?|damage)$',
  'i',
)

/** Objects that are ills: what improves them lessens them. */
const SYMPTOM = new RegExp(
  String.raw`\b(?:pain|soreness|symptoms?|disease|disorders?|syndrome|fatigue|frailty|dysfunction|deficits?` +
    '|damage|injury|inflammation|stiffness|severity|disability|impairment|toxicity|insomnia|depression' +
    String.raw`|anxiety)\b`,
  'i',
)

/** A clause break between a side and its verb, or inside a phrase: what stands beyond it belongs to another clause. */
const CUT_AFTER = new RegExp(
  String.raw`[,;:.(]|\b(?:in|by|and|or|but|through|via|compared|when|while|whereas|after|during|from|than|that` +
    '|which|at|among|between|with|without|despite|following|to|for|as|versus|vs|if|whether|because' +
    String.raw`|although|since|where|who|whose|regardless|independently)\b`,
  'i',
)

function phraseAfter(text: string): ClaimSide | null {
  const start = text.replace(/^\s*(?:on|of|in)\s+/i, ' ') // "no effect on X", "an increase of X"
  // "VPA inhibits its metabolism": the possessive points at another clause's noun.
  if (/^\s*(?:its|their|his|her)\b/i.test(start)) return null
  const cut = CUT_AFTER.exec(start)
  // "prominent endoplasmic reticulum (ER) stress responses": the phrase goes on past its abbreviation.
  const past = cut?.[0] === '(' ? /^\(\s*[^()\s]{1,15}\)\s+([\p{L}-]+)/u.exec(start.slice(cut.index)) : null
  if (
    past &&
    !CUT_AFTER.test(past[1]) &&
    !VERB.test(past[1]) &&
    !/^\p{Lu}/u.test(past[1]) &&
    !SAME_ENTITY.test(past[1]) &&
    !MEASURE.test(past[1]) &&
    !/^(?:kinase|cell|transcription|factor|complex|family|gene)$/i.test(past[1])
  )
    return null
  let clause = (cut ? start.slice(0, cut.index) : start).trim()
  let more = objectContinuation(start, cut ? cut.index : start.length, '', clause)
  if (more === null) return null
  // "increased risk for cardiovascular disease", "sensitivity of cells to doxorubicin", "increased risk of acute and
  // chronic rejection": a head that needs its complement takes it, when short; cut before it, it says nothing.
  const complement = cut && !more ? complementAfter(start.slice(cut.index), clause) : ''
  if (complement === null) return null
  if (complement) more = complement
  if (more) clause = joined(clause, more)
  const side = phrase(wordsOf(clause), complement ? 9 : 6)
  if (!side || lostItsNoun(side.text) || CAPACITY.test(wordsOf(side.text)[0])) return null
  const resolved = headEntity(resolvedSide(side, SIDE_TYPES))
  // "alterations in HPA axis activity", "resistance to cisplatin", "complex formation between TSC1 and TSC2": a short
  // head cut at its preposition is about what follows, which the cut left out.
  if (
    !more &&
    cut &&
    /^(?:in|to|between|for|on|with|of|at|from|among)$/i.test(cut[0]) &&
    !resolved.entity &&
    wordsOf(resolved.text).length <= 2 &&
    RELATIVE_HEAD.test(wordsOf(resolved.text).at(-1)!)
  )
    return null
  return resolved
}

/** Heads whose sense lies in their complement: a risk is a risk of something, a time a time to something. */
const NEEDS_COMPLEMENT = new RegExp(
  '^(?:risks?|odds|likelihood|probability|incidence|time|duration|percentage|proportion|improvements?' +
    '|sensitivity|resistance|susceptibility|rates?|chances?)$',
  'i',
)
/** Adjectives that share their noun with another after "and"/"or" ("acute and chronic rejection"). */
const PAIRED_ADJECTIVE =
  /^(?:acute|chronic|early|late|total|partial|systolic|diastolic|short|long|upper|lower|primary|secondary|fatal|non-?fatal|mild|moderate|severe|\w+(?:ic|al|ous|ive|ary|ular))$/i
/** What may follow a complement's preposition: up to four words of one noun phrase, without a verb. */
const COMPLEMENT_END = new RegExp(
  String.raw`[,;:.()]|\s(?:in|by|but|through|via|compared|when|while|whereas|after|during|from|than|that|which|at` +
    String.raw`|among|between|with|without|despite|following|to|for|as|versus|vs|if|whether|because|although|since` +
    String.raw`|where|who|whose|of|on)\s`,
  'i',
)

/**
 * The complement that `rest` (from the cut on) gives the object `clause`: "for cardiovascular disease" after
 * "increased risk", "to doxorubicin" after "sensitivity of cells", "and chronic rejection" after "risk of acute".
 * '' when the clause needs none; null when it needs one that cannot be read whole.
 */
function complementAfter(rest: string, clause: string): string | null {
  const words = wordsOf(clause)
  if (!words.length) return ''
  const m = /^\s*(and|or|to|for|with|in|on|of)\s+/i.exec(rest)
  if (!m) return ''
  // The last word's complement, or "to" after a head that has its "of" ("sensitivity of cells to doxorubicin").
  const of = words.findIndex((w) => /^of$/i.test(w))
  const head = (of > 0 && /^to$/i.test(m[1]) ? words[of - 1] : words.at(-1)!).replace(/[,.;:]+$/, '')
  const coordinated = /^(?:and|or)$/i.test(m[1])
  if (coordinated ? !PAIRED_ADJECTIVE.test(words.at(-1)!) : !NEEDS_COMPLEMENT.test(head)) return ''
  const body = rest.slice(m[0].length)
  const end = COMPLEMENT_END.exec(` ${body}`)
  // "SpO(2)": a bracket glued to a word cuts it.
  if (end?.[0] === '(' && /\S/.test(` ${body}`[end.index - 1] ?? ' ')) return null
  const taken = wordsOf(end ? ` ${body}`.slice(0, end.index) : body)
  if (
    taken.length === 0 ||
    taken.length > 4 ||
    taken.some((w) => VERB.test(w) || FILLER.test(w.replace(/^(?:the|a|an)$/i, 'x')) || /^(?:and|or)$/i.test(w)) ||
    lostItsNoun(taken.join(' '))
  )
    return NEEDS_COMPLEMENT.test(head) || coordinated ? null : ''
  return `${m[1]} ${taken.join(' ')}`
}

/**
 * A phrase and what continues it ("IL6" and ", IL8, and TNFα gene expression"), a list's commas kept on their words.
 */
const joined = (phrase: string, more: string) => `${phrase} ${more.trim()}`.replace(/\s+,/g, ',')

const CLAUSE_BREAK = new RegExp(
  String.raw`[,;:()]|\b(?:that|which|and|but|or|whereas|while|although|when|than|after|before|because|since|if` +
    String.raw`|then|thereby|thus)\b`,
  'i',
)
/** Between a verb and its object only an article, a measure and "of" may stand ("increased the expression of HO-1"). */
const OBJECT_GAP = /^(?:the|a|an|of|\w+(?:ion|ity|ment|ance|ence|ness|ure|els?|ts?|ss|sis|ing|th|ize|ze))$/i
/** The most words between a mention and its verb for the mention still to be the verb's side. */
const MAX_GAP = 4

/**
 * The words between a subject mention and its verb allow the mention to be the verb's subject: few, and no clause
 * break.
 */
function adjacentBefore(gap: string): boolean {
  return !CLAUSE_BREAK.test(gap) && wordsOf(gap).length <= MAX_GAP
}

/**
 * The words between a verb and an object mention: none, or a measure of the mention ("the levels of"), ending in "of".
 */
function adjacentAfter(gap: string): boolean {
  const words = wordsOf(gap)
  return (
    words.length === 0 ||
    (words.length <= MAX_GAP && /^of$/i.test(words.at(-1)!) && words.every((w) => OBJECT_GAP.test(w)))
  )
}

/**
 * Words after a mention that keep it the head of its phrase: its amount, activity or manipulation ("IL-6 levels", "TSC1
 * deletion").
 */
const SAME_ENTITY = new RegExp(
  '^(?:expression|levels?|concentrations?|content|proteins?|mRNA|genes?|signal(?:l)?ing|activity' +
    '|activation|pathway|cascade|axis|phosphorylation|transcription|promoter|deletion|knock-?out|KO|cKO' +
    '|deficiency|loss|ablation|depletion|inhibition|overexpression|mutations?|mutants?|variants?' +
    '|polymorphisms?|genotype|allele|status|treatment|supplementation|administration|intake|use|therapy' +
    '|injections?|infusions?' +
    '|exposure|mice|rats|animals|cells|worms|flies)$',
  'i',
)

/** What is measured of a protein or compound, the phrase still naming it ("ubiquitination of TSC1"). */
const MEASURE = new RegExp(
  '^(?:ubiquitination|acetylation|methylation|degradation|stability|translocation|locali[sz]ation' +
    '|secretion|release|production|synthesis|transcription|translation|abundance|amounts?' +
    '|concentrations?|content|uptake|binding|function)$',
  'i',
)

/** A word glued after a name that makes it name something else ("TNF-inhibitors", "insulin-stimulated"). */
const NAMES_ANOTHER = new RegExp(
  `^[-‐–](?:${[
    'inhibitors?',
    'antagonists?',
    'agonists?',
    'blockers?',
    'analog(?:ue)?s?',
    'induced',
    'treated',
    'stimulated',
    'mediated',
    'related',
    'associated',
    'like',
    'independent',
    'dependent',
    'targeted',
    'based',
    'sensitive',
    'resistant',
    'responsive',
  ].join('|')})\\b`,
  'i',
)

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
  text: string,
  m: Mention,
  limit: number,
  before: boolean,
  lead = '',
  keepsEntity = true,
): ClaimSide | null {
  // "Liraglutide-induced autophagy": the hyphen before a participle verb joins the subject to it, not to a word.
  const rest = before ? text.slice(m.end, limit).replace(/[-‐–]$/, '') : text.slice(m.end, limit)
  // A name matched across a bracket ("(mTORC1) signaling" read as "mTORC1 signaling") is written without it.
  const own = /[()[\]]/.test(m.text) && balanced(wordsOf(m.text)) === null ? m.text.replace(/[()[\]]/g, '') : m.text
  let words = wordsOf(own)
  let entity: ClaimSide['entity'] = keepsEntity ? entityOf(m) : null
  // "increased the cytotoxicity of rapamycin", "proliferation of Tsc2(+/-) SMCs": an object whose head is not a
  // measure or manipulation of the mention is another thing, and names no entity.
  const heads = before ? [] : wordsOf(lead).filter((w) => !/^(?:the|a|an|of)$/i.test(w))
  if (
    heads.length &&
    !MANIPULATION.test(heads.at(-1)!) &&
    !SAME_ENTITY.test(heads.at(-1)!) &&
    !MEASURE.test(heads.at(-1)!)
  )
    entity = null
  // "insulin- and leucine-stimulated mTOR signaling": the mention begins a compound whose head comes later.
  const suspended = before ? null : /^[-‐–]\s+(?:and|or)\s+[^\s,;:]+[-‐–][^\s,;:]+/.exec(rest)
  // "liver kinase B1 (LKB1) phosphorylation": the object's abbreviation in brackets, and its head after it.
  const abbreviation = before || suspended ? null : /^\s*\([^()\s]{1,15}\)(?=\s)/.exec(rest)
  const offset = suspended ? suspended[0].length : abbreviation ? abbreviation[0].length : 0
  if (suspended) {
    words = [...words.slice(0, -1), words.at(-1)! + suspended[0]]
    entity = null
  }
  if (abbreviation) words = [...words, abbreviation[0].trim()]
  const after = rest.slice(offset)
  const cut = before ? after.length : (CUT_AFTER.exec(after)?.index ?? after.length)
  let tail = [...after.slice(0, cut).matchAll(/\S+/g)].map((t) => ({
    w: t[0],
    end: m.end + offset + t.index! + t[0].length,
  }))
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
    } else if (/^[)\]]/.test(tail[0].w))
      tail = [] // "(mTOR) signaling": the phrase it stands in began before it.
    else {
      // "TNF-inhibitors", "insulin-stimulated": a word that only holds the name names something else; "mTOR/PI3K"
      // names two things.
      if (NAMES_ANOTHER.test(tail[0].w) || /^\/\p{L}/u.test(tail[0].w)) entity = null
      words = [...words.slice(0, -1), words.at(-1)! + tail[0].w]
      end = tail[0].end
      tail = tail.slice(1)
    }
  }
  const kept: string[] = []
  let stopped = ''
  for (const { w, end: at } of tail) {
    const bare = w.replace(/[),.;:]+$/, '')
    if (
      kept.length >= 3 ||
      VERB.test(bare) ||
      FILLER.test(bare) ||
      NOT_A_START.test(bare) ||
      /ed$/i.test(bare) ||
      !/^[\p{L}\p{N}]/u.test(bare)
    ) {
      stopped = bare
      break
    }
    // "mTOR kinase activity" is mTOR's; "creatine kinase" is no creatine.
    if (!SAME_ENTITY.test(bare) && !(/^kinase$/i.test(bare) && m.entry.type === 'gene')) entity = null
    kept.push(w)
    end = at
    if (bare !== w) break // a comma or full stop ends the phrase
  }
  // "macroautophagy-mediated lysosomal degradation of YAP": the object's head has its own complement, cut here.
  if (!before && kept.length && /^of$/i.test(stopped)) return null
  if (leadWords.length && !keepsEntity) entity = null
  let whole = balanced([...leadWords, ...words, ...kept])
  if (!whole || /[-–/]$/.test(whole.at(-1)!)) return null
  if (!before) {
    const more = objectContinuation(text, end, lead, whole.join(' '))
    if (more === null) return null
    if (more) {
      whole = wordsOf(joined(whole.join(' '), more))
      // "STAT3 expression and phosphorylation" still names STAT3; "CHOP and ATF4 expression" names two things.
      if (!wordsOf(more).every((w) => /^(?:and|or)$/i.test(w) || SAME_ENTITY.test(w))) entity = null
    }
  }
  const phrase = whole.join(' ')
  if (whole.length > 8 || (phrase !== own && (lostItsNoun(phrase) || holdsClause(whole)))) return null
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
    for (const s of [...sentences].sort((a, b) => a.start - b.start))
      text = text.padEnd(s.start, ' ').slice(0, s.start) + s.text
    mentions = findMentions(text)
  }
  return sentences.map((s) =>
    mentions
      .filter((m) => m.start >= s.start && m.end <= s.start + s.text.length)
      .map((m) => ({ ...m, start: m.start - s.start, end: m.end - s.start })),
  )
}

/** Claims from `sentences`; `mentions` are the lexicon mentions of the text they were split from, when known. */
export function extractClaims(
  sentences: Sentence[],
  setting: ClaimSetting,
  limit = 6,
  textMentions?: Mention[],
): FoundClaim[] {
  const out: FoundClaim[] = []
  const bySentence = mentionsBySentence(sentences, textMentions)
  sentences.forEach((sentence, index) => {
    if (out.length >= limit || AIM.test(sentence.text) || METHOD.test(sentence.text)) return
    const text = sentence.text
    // The verb that comes first carries the sentence's main finding; ties go to the more specific pattern.
    const pattern = PATTERNS.map((p) => ({ p, m: verbMatch(p.re, text) }))
      .filter((x) => x.m)
      .sort((a, b) => a.m!.index - b.m!.index)[0]
    if (!pattern?.m) return
    const verbStart = pattern.m.index
    const verbEnd = verbStart + pattern.m.text.length
    // "protects TSC2 from AKT phosphorylation": what is protected is not what the protection acts against.
    if (
      pattern.p.relation === 'protects_against' &&
      /^(?:protect|prevent)/i.test(pattern.m.text) &&
      /^\s+(?!against)[^.;]{1,40}?\bfrom\b/i.test(text.slice(verbEnd))
    )
      return
    // "have not provided consistent evidence that cortisol levels are associated with obesity": a finding denied.
    if (/\b(?:not|no|neither|nor|never|little|lack of)\b[^.;]*\b(?:that|whether)\b/i.test(text.slice(0, verbStart)))
      return
    // "how EPO restores synapses (is a conundrum)", "interventions to prevent hip fracture": a question or a purpose
    // states no finding ("was able to prevent" does).
    const upToVerb = text.slice(0, verbStart)
    if (/\b(?:how|why)\s+(?:[^\s,;:.]+\s+){0,5}$/i.test(upToVerb)) return
    if (
      /\bto\s+$/i.test(upToVerb) &&
      !/(?:ed|s)$/i.test(pattern.m.text) &&
      !/\b(?:able|sufficient|enough|shown|found|appears?|seems?)\s+to\s+$/i.test(upToVerb)
    )
      return
    // "cognitive deficits induced in HD": a participle after its noun, with no object, says where, not what it acts on.
    if (
      /ed$/i.test(pattern.m.text) &&
      !PASSIVE_BEFORE.test(text.slice(0, verbStart)) &&
      /^\s+(?:in|at|during|among|after|from|with|within)\b/i.test(text.slice(verbEnd))
    )
      return
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
    const longForm =
      subjectNear &&
      mentions.find((m) => m.end <= subjectNear.start && /^\s*\($/.test(text.slice(m.end, subjectNear.start)))
    // "inhibition of insulin-stimulated IRS1 phosphorylation": the name before a hyphenated participle is its agent
    // alone; the words before it belong to the phrase the participle modifies.
    const hyphenVerb = /[-‐–]$/.test(text.slice(0, verbStart))
    if (hyphenVerb && subjectNear?.end !== verbStart - 1) return
    // "phospho-S6K-activated proteins": a name inside a longer hyphenated word is a label, not an agent.
    if (hyphenVerb && subjectNear && /[-‐–]$/.test(text.slice(0, subjectNear.start))) return
    const lead = !subjectNear
      ? null
      : hyphenVerb
        ? { lead: '', keepsEntity: true }
        : subjectLead(text, subjectNear, longForm)
    let subject = subjectNear
      ? lead
        ? mentionSide(text, subjectNear, verbStart, true, lead.lead, lead.keepsEntity)
        : null
      : phraseBefore(text.slice(0, verbStart))
    let object = objectNear
      ? mentionSide(text, objectNear, text.length, false, objectGap)
      : phraseAfter(text.slice(verbEnd))
    if (pattern.p.relation === 'extends_lifespan') {
      // The lifespan word the verb governs, not a phenotype of another clause ("... more time but weight loss").
      const outcome = mentions.find(
        (m) => m.start >= verbEnd && m.entry.type === 'phenotype' && LIFESPAN.test(m.text) && m.start - verbEnd <= 60,
      )
      if (outcome) object = { text: outcome.text, entity: entityOf(outcome) }
    }
    if (passive) {
      // "Y was reduced by X": X, right after "by", acts on Y.
      const agent = firstAfter && /^\s+by\s+(?:the\s+)?$/i.test(objectGap) ? firstAfter : undefined
      ;[subject, object] = [agent ? mentionSide(text, agent, text.length, false) : null, subject]
    }
    // "traffic-related air pollution (TRAP)": an abbreviation the text defines, which the matcher did not read as the
    // lexicon's, names nothing here, though its letters are a symbol.
    // So does a phrase named by it ("prenatal TRAP exposure").
    const foreignWord = (w: string, key: string) =>
      /^[A-Z][A-Z0-9-]{1,9}s?$/.test(w) &&
      !mentions.some((m) => m.text === w) &&
      sentences.some((s) => s.text.includes(`(${w})`) || s.text.includes(`(${w};`) || s.text.includes(`(${w},`)) &&
      (w === key || sideEntity(w)?.key === key)
    const foreign = (side: ClaimSide | null): ClaimSide | null =>
      side?.entity && wordsOf(side.text).some((w) => foreignWord(w, side.entity!.key))
        ? { text: side.text, entity: null }
        : side
    subject = foreign(subject)
    object = foreign(object)
    if (!subject || !object || (!subject.entity && !object.entity)) return
    // "Rapamycin restored these phenotypic changes", "the cilia length phenotype was restored by rapamycin": what is
    // restored is undone when it is a change, so which way the claim goes is not said.
    if (/^restor/i.test(pattern.m.text) && UNDONE.test(wordsOf(object.text).at(-1)!)) return
    // "induces adhesion fibroblasts to undergo apoptosis": the object is the agent of a clause that follows.
    const objectAt = text.indexOf(object.text, verbEnd)
    if (
      objectAt >= 0 &&
      /^\s+to\s+(?:be|undergo|become|die|enter|differentiate|proliferate|migrate|acquire)\b/i.test(
        text.slice(objectAt + object.text.length),
      )
    )
      return
    // "improved OA", "improves delayed-onset muscle soreness": improving a disease or a symptom lessens it.
    let relation = pattern.p.relation
    let direction = pattern.p.direction
    if (/^improv/i.test(pattern.m.text) && (object.entity?.type === 'disease' || SYMPTOM.test(object.text))) {
      relation = 'decreases'
      direction = 'decrease'
    }
    // "obesity was not associated with elevated HCC": a negation before the verb turns the claim round.
    const beforeVerb = text.slice(subjectNear ? subjectNear.end : Math.max(0, verbStart - 30), verbStart)
    if (pattern.p.relation !== 'no_effect_on' && NEGATION.test(beforeVerb)) return
    // "Neither plasma nor tissue TNF-α appear to correlate", "No TSC2 mutation increased": the subject is denied.
    const clauseBefore = upToVerb.split(/[,;:]|\b(?:that|which|whereas|while|but)\b/i).pop()!
    if (pattern.p.relation !== 'no_effect_on' && /\b(?:neither|nor|no)\b/i.test(clauseBefore)) return
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
      relation,
      object,
      organism: organismM ? latinName(organismM.entry) : setting.organism,
      context: compact({
        sex: readSex(text),
        age: readAge(text),
        tissue: tissueM?.entry.name ?? null,
        dose: readDose(text),
        duration: readDuration(text),
        n: readN(text),
        subject_type: subject.entity?.type ?? null,
        object_type: object.entity?.type ?? null,
        primary: out.length === 0 ? true : null,
        design: setting.design,
        evidence_level: setting.evidenceLevel,
        preprint: setting.preprint ? true : null,
      }),
      direction,
      magnitude,
      evidence: text,
      confidence: Math.round(Math.max(0.1, Math.min(0.95, confidence)) * 100) / 100,
    })
  })
  return out
}
