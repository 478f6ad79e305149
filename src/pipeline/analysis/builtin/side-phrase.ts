/**
 * The whole noun phrase around a claim side's lexicon mention, read from the words of its own clause
 * (./claims.ts takes the mention next to the finding verb). The verb patterns alone cut phrases short:
 * "knockdown of TSC1 increased ..." read as "TSC1 increases", "cell senescence in COPD was linked to ..."
 * as "COPD", "the association of TSC1 and TSC2" as "association of TSC1". Here a subject's phrase is
 * walked leftwards over its modifiers, its "of"/"in" heads and its coordinations up to the clause
 * boundary, and an object's phrase rightwards over a coordination that shares a head noun ("CHOP and
 * ATF4 expression"). A phrase whose edges cannot be found (a list inside a longer phrase, a phrase past
 * eight words) is no side: the claim is dropped rather than stated about a fragment.
 */
import type { Mention } from '../../../lexicon/matcher'

/** A whole word, in any case, that is one of `words` (each a regular expression). */
const oneOf = (...words: string[]) => new RegExp(`^(?:${words.join('|')})$`, 'i')

/** Words that cannot stand for a subject or object on their own, nor begin or end one. */
export const FILLER = oneOf(
  'the',
  'this',
  'these',
  'those',
  'that',
  'a',
  'an',
  'in',
  'our',
  'its',
  'their',
  'both',
  'either',
  'it',
  'they',
  'we',
  'which',
  'also',
  'further',
  'furthermore',
  'moreover',
  'additionally',
  'however',
  'thus',
  'therefore',
  'not',
  'no',
  'was',
  'were',
  'is',
  'are',
  'been',
  'be',
  'has',
  'have',
  'had',
  'treatment',
  'with',
  'of',
  'for',
  'to',
  'on',
  'at',
  'from',
  'by',
  'as',
  'and',
  'or',
  'than',
  'into',
  'there',
  'here',
  '\\w+ly',
)
/** A side never starts with these: what follows is a circumstance ("between groups", "despite ..."), not a thing. */
export const NOT_A_START = oneOf(
  'between',
  'despite',
  'even',
  'although',
  'though',
  'because',
  'since',
  'if',
  'when',
  'while',
  'after',
  'before',
  'during',
  'upon',
  'within',
  'without',
  'among',
  'via',
  'through',
  'across',
  'against',
  'over',
  'under',
  'following',
  'compared',
  'including',
  'such',
  'only',
  'all',
  'each',
  'other',
  'some',
  'many',
  'most',
  'more',
  'less',
  'one',
  'two',
  'three',
  'forms?',
  'types?',
  'kinds?',
  'identify',
  'identified',
  'higher',
  'lower',
  'greater',
  'significant',
  'significantly',
  'resulting',
  'using',
  'having',
  'being',
  'showing',
  'leading',
  'making',
  'taking',
  'given',
  'conclusions?',
  'results?',
  'background',
  'methods?',
  'objectives?',
  'purpose',
  'aims?',
  'order',
  'whose',
  'who',
  'whom',
)
/** A one-word side that names nothing in particular ("effects", "response"): no claim is about it. */
export const GENERIC = oneOf(
  'effects?',
  'changes?',
  'responses?',
  'levels?',
  'results?',
  'data',
  'analysis',
  'study',
  'studies',
  'sensitivity',
  'costs?',
  'expression',
  'activity',
  'improvements?',
  'proteins?',
  'genes?',
  'cells?',
  'patients?',
  'mice',
  'rats',
  'groups?',
  'outcomes?',
  'function',
  'role',
  'risk',
  'differences?',
  'treatments?',
  'processes',
  'process',
  'factors?',
  'mechanisms?',
  'it',
  'complex',
  'interactions?',
  'associations?',
  'binding',
  'affinity',
  'ratio',
  'signal(?:l)?ing',
  'increases?',
  'decreases?',
  'reductions?',
  'decline',
  'elevation',
  'development',
  'formation',
  'acquisition',
  'state',
  'alterations?',
  'abnormalit(?:y|ies)',
  'modifications?',
  'ability',
  'capacity',
  'requirements?',
  'susceptibility',
  'resistance',
  'contributions?',
  'involvement',
  'stressors?',
  'features?',
  'phenotypes?',
  'parameters?',
  'markers?',
  'values?',
  'production',
  'status',
)
/**
 * A verb inside a phrase: it is a clause, not a noun phrase ("Western blotting demonstrated", "the dose produced
 * significant", "fragmented hospital readmissions contribute", "mimics the function").
 */
export const VERB = oneOf(
  'was',
  'were',
  'is',
  'are',
  'be',
  'been',
  'being',
  'has',
  'have',
  'had',
  'do',
  'does',
  'did',
  'can',
  'could',
  'may',
  'might',
  'will',
  'would',
  'should',
  'must',
  'demonstrated',
  'demonstrates',
  'showed',
  'shows',
  'shown',
  'revealed',
  'reveals',
  'produced',
  'produces',
  'indicated',
  'indicates',
  'suggested',
  'suggests',
  'confirmed',
  'found',
  'observed',
  'resulted',
  'results',
  'led',
  'leads',
  'caused',
  'causes',
  'remained',
  'remains',
  'became',
  'seemed',
  'appeared',
  'exhibited',
  'displayed',
  'underwent',
  'received',
  'used',
  'performed',
  'exposed',
  'show',
  'demonstrate',
  'indicate',
  'suggest',
  'reveal',
  'confirm',
  'support',
  'provide',
  'provides',
  'provided',
  'contribute',
  'contributes',
  'contributed',
  'mimic',
  'mimics',
  'mimicked',
  'phosphorylate',
  'phosphorylates',
  'act',
  'acts',
  'acted',
  'play',
  'plays',
  'played',
  'occur',
  'occurs',
  'occurred',
  'exist',
  'exists',
  'depend',
  'depends',
  'require',
  'requires',
  'required',
  'regulate',
  'regulates',
  'mediate',
  'mediates',
  'bind',
  'binds',
  'interact',
  'interacts',
  'correlate',
  'correlates',
  'affect',
  'affects',
  'modulate',
  'modulates',
  'control',
  'controls',
  'represent',
  'represents',
  'involve',
  'involves',
  'contain',
  'contains',
  'include',
  'includes',
  'appear',
  'appears',
  'seem',
  'seems',
  'tend',
  'tends',
  'serve',
  'serves',
  'exert',
  'exerts',
  'exerted',
  'displaces',
  'displace',
  'coincides',
  'coincide',
  'lead',
  'cause',
  'undergo',
  'undergoes',
  'offer',
  'offers',
  'allow',
  'allows',
  'enable',
  'enables',
  'reverse',
  'reverses',
  'reversed',
  'suggesting',
  'indicating',
  'implying',
  'demonstrating',
  'revealing',
  'confirming',
  'resulting',
  'causing',
  'report',
  'reports',
  // Finding verbs in their base form, never a noun ("stimulate" of "environments that, in turn, stimulate").
  'stimulate',
  'elevate',
  'enhance',
  'promote',
  'induce',
  'activate',
  'improve',
  'restore',
  'augment',
  'reduce',
  'attenuate',
  'suppress',
  'inhibit',
  'impair',
  'diminish',
  'alleviate',
  'ameliorate',
  'abolish',
  'mitigate',
  'prolong',
  'protect',
  'prevent',
  'upregulate',
  'downregulate',
  'shorten',
)
/** An adjective left at the end when a phrase is cut at "and" ("gastric and circulating ghrelin" cut to "gastric"). */
const ADJECTIVE_END = /(?:ic|al|ous|ive|ible|able|ary|ular|ed)$/i
const NOUNS_LIKE_ADJECTIVES = oneOf(
  'signal',
  'animal',
  'trial',
  'survival',
  'potential',
  'individual',
  'interval',
  'hospital',
  'journal',
  'proposal',
  'removal',
  'withdrawal',
  'arrival',
  'renewal',
  'disposal',
  'approval',
  'capital',
  'metal',
  'tubal',
  'need',
  'seed',
  'speed',
  'bed',
  'feed',
  'breed',
  '\\w+ed\\)',
)
/** Words that end no noun phrase: an adverb or an adjective left behind ("rectal cancer overall", "signaling due"). */
const DANGLING = oneOf(
  'overall',
  'due',
  'alone',
  'respectively',
  'together',
  'only',
  'both',
  'black',
  'white',
  'whereas',
  'per',
  'versus',
  'vs',
  'via',
  'thereby',
  'independently',
  'regardless',
  'mainly',
  'mostly',
  'partly',
  'either',
  'neither',
  'nor',
  'known',
  'called',
  'termed',
  'named',
  // Adverbs and participles that begin a clause the phrase was cut from ("neoplasm often linked to", "factor leading
  // to", "clients such as").
  'often',
  'always',
  'sometimes',
  'still',
  'already',
  'again',
  'such',
  'leading',
  'including',
  'involving',
)
/** Adjectives that end no noun phrase but may stand inside one ("cells deficient for TSC1"): "glucose intolerant". */
const PREDICATIVE = oneOf(
  'present',
  'absent',
  'intolerant',
  'tolerant',
  'deficient',
  'dependent',
  'independent',
  'resistant',
  'sensitive',
  'susceptible',
  'prone',
)
/** A hyphenated adjective ("p53-mutant", "Tsc1-deficient", "bortezomib-induced") is a modifier waiting for its noun. */
const HYPHEN_ADJECTIVE = new RegExp(
  `[-‐–](?:${[
    'mutant',
    'null',
    'deficient',
    'induced',
    'dependent',
    'independent',
    'positive',
    'negative',
    'treated',
    'stimulated',
    'mediated',
    'related',
    'associated',
    'like',
    'based',
    'free',
    'specific',
    'derived',
    'driven',
    'resistant',
    'sensitive',
    'activated',
    'triggered',
    'expressing',
    'responsive',
    'containing',
    'bearing',
    'targeted',
    'linked',
    'regulated',
  ].join('|')})$`,
  'i',
)

export const wordsOf = (s: string) => s.split(/\s+/).filter(Boolean)

/** The phrase ends in an adjective that lost its noun, a dangling word or a hyphen adjective. */
export function lostItsNoun(text: string): boolean {
  const last = wordsOf(text).at(-1) ?? ''
  return (
    (ADJECTIVE_END.test(text) && !NOUNS_LIKE_ADJECTIVES.test(last)) ||
    DANGLING.test(last) ||
    PREDICATIVE.test(last) ||
    HYPHEN_ADJECTIVE.test(last)
  )
}

/** Brackets and quotes left open at either end of a cut phrase are dropped; one left open inside spoils it. */
export function balanced(words: string[]): string[] | null {
  const text = words
    .join(' ')
    .replace(/^[(\[“"']+(?=[^)\]]*$)/, '')
    .replace(/(?<=^[^(\[]*)[)\]”"']+$/, '')
    .replace(/[,.;:]+$/, '')
  const open = (text.match(/[(\[]/g) ?? []).length
  const close = (text.match(/[)\]]/g) ?? []).length
  if (open !== close) return null
  return wordsOf(text)
}

/** A finding verb of ./claims.ts's patterns, which never stands inside a subject's phrase. */
const FINDING_VERB = new RegExp(
  `^(?:${[
    'increas',
    'elevat',
    'enhanc',
    'up-?regulat',
    'promot',
    'induc',
    'activat',
    'improv',
    'restor',
    'boost',
    'augment',
    'stimulat',
    'reduc',
    'decreas',
    'lower',
    'attenuat',
    'suppress',
    'inhibit',
    'down-?regulat',
    'impair',
    'diminish',
    'alleviat',
    'ameliorat',
    'block',
    'abolish',
    'delay',
    'mitigat',
    'shorten',
    'extend',
    'prolong',
    'prevent',
    'protect',
    'abolish',
    'attenuate',
    'inhibit',
    'suppress',
    'reduce',
    'enhance',
    'promote',
    'induce',
  ].join('|')})(?:s|es|ed|d)?$`,
  'i',
)
/**
 * A finding verb after a noun inside a phrase: the phrase holds a clause ("NADPH oxidase activation promoted
 * macrophage proliferation"). A participle after an article or an adverb modifies its noun ("the increased risk").
 */
export function holdsClause(words: string[]): boolean {
  return words.some(
    (w, i) =>
      i > 0 &&
      /(?:ed|es|s)$/i.test(w) &&
      FINDING_VERB.test(w) &&
      /^[\p{L}\p{N})]/u.test(words[i - 1]) &&
      /[\p{L}\p{N})]$/u.test(words[i - 1]) &&
      !FILLER.test(words[i - 1]) &&
      !COORDINATOR.test(words[i - 1]) &&
      !/^(?:more|less|most|least|significantly|markedly)$/i.test(words[i - 1]),
  )
}
/** Words a noun phrase holds before its head: nouns, adjectives, symbols, never a verb or a connective. */
const modifier = (w: string) =>
  /^[\p{L}\p{N}(\[]/u.test(w) &&
  !/[,;:.!?]$/.test(w) &&
  !/^[(\[].*[^)\]]$/.test(w) &&
  (!FILLER.test(w) || TREATMENT.test(w)) &&
  !VERB.test(w) &&
  !HEADING.test(w) &&
  !NOT_A_START.test(w) &&
  !FINDING_VERB.test(w) &&
  !DANGLING.test(w)
/** A section heading run into the sentence ("INTERPRETATION Activation of ..."). */
const HEADING = new RegExp(
  `^(?:${[
    'BACKGROUND',
    'METHODS?',
    'RESULTS?',
    'CONCLUSIONS?',
    'INTERPRETATION',
    'OBJECTIVES?',
    'PURPOSE',
    'FINDINGS',
    'SIGNIFICANCE',
    'INTRODUCTION',
    'DISCUSSION',
    'AIMS?',
    'SUMMARY',
  ].join('|')}):?$`,
)
/** Prepositions that join a head noun to the mention ("loss of", "SNPs in", "inhibition by"). */
const LINK = /^(?:of|in|by|with|from|for|on)$/i
/** Heads whose "with" names what was given: "treatment of old mice with rapamycin" is rapamycin's. */
const TREATMENT = oneOf(
  'treatment',
  'treating',
  'pretreatment',
  'pre-treatment',
  'co-treatment',
  'exposure',
  'incubation',
  'supplementation',
  'administration',
  'addition',
  'application',
  'injection',
  'infusion',
  'intervention',
)
const DETERMINER = /^(?:the|a|an|its|their)$/i
const COORDINATOR = /^(?:and|or)$/i
/**
 * Heads that manipulate or measure what their "of" names: the phrase still names that entity ("inhibition of
 * mTOR", "knockdown of SIRT6"); any other head names something else ("germline SNPs in the mTOR pathway").
 */
export const MANIPULATION = oneOf(
  'doses?',
  'use',
  'intake',
  'phosphorylation',
  'inhibition',
  'depletion',
  'deletion',
  'loss',
  'knock-?down',
  'knock-?out',
  'ablation',
  'silencing',
  'deficiency',
  'absence',
  'blockade',
  'overexpression',
  'over-expression',
  'inactivation',
  'activation',
  'hyperactivation',
  'upregulation',
  'up-regulation',
  'downregulation',
  'down-regulation',
  'suppression',
  'disruption',
  'reduction',
  'stimulation',
  'administration',
  'supplementation',
  'expression',
  'levels?',
  'activity',
  'injections?',
  'infusions?',
  // Removing the cells a marker defines is a manipulation of that marker's cells ("clearance of p16-positive cells").
  'clearance',
  'removal',
  'elimination',
)
/** Modifiers that say in what state or amount the mention is, the phrase still naming it ("endogenous REDD1"). */
const STATE = oneOf(
  'endogenous',
  'exogenous',
  'hepatic',
  'neuronal',
  'cardiac',
  'muscle',
  'hyperactive',
  'active',
  'constitutive',
  'constitutively',
  'oral',
  'dietary',
  'low-dose',
  'high-dose',
  'chronic',
  'acute',
  'kinase-dead',
  'knockdown',
  'knock-down',
  'knockout',
  'deletion',
  'human',
  'mouse',
  'murine',
  'recombinant',
  'total',
  'serum',
  'plasma',
  'circulating',
  'elevated',
  'reduced',
  'increased',
  'decreased',
  'high',
  'low',
  'phosphorylated',
  'pharmacological',
  'genetic',
  'conditional',
  'partial',
  'specific',
  'selective',
  'dual',
  'mutant',
  'mutated',
  'wild-type',
  'siRNA',
  'shRNA',
  'RNAi',
  'doses?',
  'both',
  '\\w+[-‐–](?:specific|mediated|selective|restricted|wide|inducible)',
)

export type SubjectLead = { lead: string; keepsEntity: boolean }

/** Words that open a pair: "either ... or", "both ... and", "neither ... nor". */
const PAIRED = /^(?:either|both|neither)$/i
/** Prepositions that, with a word before them, make the mention the complement of another head. */
const INSIDE = oneOf(
  'of',
  'in',
  'by',
  'with',
  'from',
  'for',
  'on',
  'at',
  'among',
  'after',
  'during',
  'under',
  'upon',
  'following',
  'without',
  'within',
  'between',
  'to',
  'than',
  'versus',
  'vs\\.?',
  'into',
  'towards?',
  'via',
  'through',
  'across',
)
/** Words after which a clause (and its subject) begins. */
const CLAUSE_WORD = oneOf(
  'that',
  'which',
  'whereas',
  'while',
  'when',
  'but',
  'and',
  'or',
  'then',
  'thus',
  'hence',
  'therefore',
  'however',
  'also',
  'here',
  'we',
  'moreover',
  'furthermore',
  'additionally',
  'importantly',
  'notably',
  'finally',
  'conversely',
  'similarly',
  'nevertheless',
  'indeed',
  'interestingly',
  'surprisingly',
  'although',
  'though',
  'because',
  'since',
  'if',
)
/** The word the subject walk stopped at, after `previous`, lies inside a longer phrase (see subjectLead). */
function insidePhrase(stop: string, previous: string): boolean {
  // "both forms of mutated TSC2": a vague head leaves the mention the subject.
  if (CLAUSE_WORD.test(previous) || /^(?:forms?|types?|kinds?|amounts?)$/i.test(previous)) return false
  if (INSIDE.test(stop)) return !/^(?:the|a|an)$/i.test(previous)
  if (VERB.test(previous)) return false
  // An adverb inside a phrase ("the functionally relevant"), a verb stem used as a noun ("block of"), a cut word.
  // "cortisol levels immediately post-stroke": an adverb after a noun is inside its phrase.
  return (
    (/^[a-z]+ly$/.test(stop) && /^[\p{L}\p{N}]/u.test(previous) && !/[,;:]$/.test(previous)) ||
    FINDING_VERB.test(stop) ||
    /^[-‐–]/.test(stop)
  )
}

/**
 * The words of a subject mention's phrase before it, in its clause: "inhibition of endogenous" of "inhibition of
 * endogenous REDD1", "germline SNPs in the" of "germline SNPs in the mTOR pathway". `keepsEntity` is false when
 * the phrase's head is another thing. Null when the phrase has no clear start (a list inside a longer phrase).
 */
export function subjectLead(text: string, m: Mention, longForm?: Mention): SubjectLead | null {
  // "mammalian target of rapamycin (mTOR) pathway": the long form and its bracket are one name with the mention.
  const unit = longForm ? longForm.start : m.start
  const tokens = [...text.slice(0, unit).matchAll(/\S+/g)].map((t) => ({ w: t[0], at: t.index! }))
  let i = tokens.length - 1
  let from = unit
  let linked = false
  let coordinated = false
  // A word glued to the mention: a prefix ("NS-Pten", "post-stroke") or the bracket of an abbreviation.
  if (!longForm && i >= 0 && tokens[i].at + tokens[i].w.length === m.start) {
    // "loss of function of TSC1/TSC2": the mention is the second of a pair written with a slash.
    const slash = /[\p{L}\p{N}]\/$/u.test(tokens[i].w)
    if (!slash && !/(?:^\(|[-‐–])$/.test(tokens[i].w)) return { lead: '', keepsEntity: true }
    // "knockdown of sirtuin6 (SIRT6)": the mention abbreviates the phrase before its bracket, which goes with it.
    coordinated = slash
    from = tokens[i].at
    i--
  }
  let beforeCoordination = from
  let linkedBeforeCoordination = false
  const heads: string[] = []
  while (i >= 0) {
    const w = tokens[i].w
    const previous = tokens[i - 1]?.w ?? ''
    const next = tokens[i + 1]
    // "cell lines administered rapamycin", "MSCs injected in osteoarthritis": a participle after a noun starts a
    // clause of its own, and where the subject's phrase begins is not clear.
    if (
      /^[a-z]+ed$/.test(w) &&
      !STATE.test(w) &&
      modifier(previous) &&
      !LINK.test(previous) &&
      (next === undefined || LINK.test(next.w) || next.at + next.w.length >= m.start)
    ) {
      return null
    }
    if (modifier(w)) heads.push(w)
    else if (coordinated && PAIRED.test(w)) {
      // "deletion of either Tsc1 or Tsc2", "loss of both ERK1 and ERK2": the word opens the coordination.
    } else if (LINK.test(w) && modifier(previous)) {
      // "genes in glioma cells and depletion of mTOR": two phrases joined; the one next to the verb is the subject.
      if (coordinated && linkedBeforeCoordination) break
      linked = true
      heads.length = 0
    } else if (DETERMINER.test(w) && LINK.test(previous) && modifier(tokens[i - 2]?.w ?? '')) {
      // "loss of the TSC genes": the article inside a phrase.
    } else if (COORDINATOR.test(w) && modifier(previous)) {
      if (!coordinated) {
        beforeCoordination = from
        linkedBeforeCoordination = linked
      }
      coordinated = true
    } else break
    from = tokens[i].at
    i--
  }
  const stop = tokens[i]?.w ?? ''
  // "mutational inactivation of NF1, TSC, and PTEN genes": a list that a head before it governs has no clear edge.
  if (coordinated && linkedBeforeCoordination && LINK.test(tokens[i]?.w ?? '')) {
    from = beforeCoordination
    coordinated = false
  } else if (i > 0 && !/[,;:]$/.test(tokens[i - 1].w) && insidePhrase(stop, tokens[i - 1].w)) {
    // The walk stopped inside a phrase, not at its edge: "block of Atf3 induction", "overexpression of miR-25 and
    // -32 in glioblastoma cells", "the functionally relevant POMC transcript", "inhibition of mTORC1 without
    // accelerated autophagy". Where the subject begins is not known, and a claim about the part would misstate it.
    return null
  }
  if (!linked && COORDINATOR.test(stop) && /,$/.test(tokens[i - 1]?.w ?? '')) {
    let j = i
    let commas = 0
    const inList = (w: string) => /,$/.test(w) || COORDINATOR.test(w) || modifier(w.replace(/,$/, ''))
    while (j >= 0 && inList(tokens[j].w)) {
      if (/,$/.test(tokens[j].w)) commas++
      j--
    }
    // Two commas make a list ("of NF1, TSC, and PTEN genes"); one is a clause's ("a DUB for Akt, and USP1 depletion").
    if (commas >= 2 && j > 0 && LINK.test(tokens[j].w) && modifier(tokens[j - 1].w)) return null
  }
  const bracketed = text.slice(unit, m.start) // the long form and its bracket, when the mention abbreviates one
  if (coordinated && !linked) {
    // A bare list ("PTEN, STK11 and TSC1 were associated"): each of its members is the verb's subject.
    return { lead: text.slice(beforeCoordination, m.start), keepsEntity: true }
  }
  // "Clopidogrel plus aspirin": a combination is neither of its parts.
  if (heads.some((w) => /^(?:plus|combined)$/i.test(w))) return { lead: text.slice(from, m.start), keepsEntity: false }
  // A circumstance before the subject, without a comma ("In HCC cells rapamycin reduced ..."): its edge is unknown,
  // and the mention is taken alone.
  if (!linked && /^(?:in|among|after|during|under|upon|at|for|with|following|from|on)$/i.test(stop)) {
    return { lead: bracketed, keepsEntity: true }
  }
  const lead = text.slice(from, m.start)
  const before = wordsOf(text.slice(from, unit))
  if (before.length + wordsOf(m.text).length > 8) return null
  if (before.length === 0) return { lead, keepsEntity: true }
  const leadWords = before.filter((w) => !DETERMINER.test(w) && w !== '(')
  if (coordinated) return { lead, keepsEntity: false }
  // Modifiers before the mention ("first trimester chloramphenicol exposure", "knockdown FLNA") leave it the head,
  // unless one names another thing ("Plk2 deficient tumor cells").
  if (!linked) {
    const other = (w: string) => !/[-‐–]$/.test(w) && /\p{Lu}.*\d|\d.*\p{Lu}|^\p{Lu}{2,}$|^deficient$|^null$/u.test(w)
    return { lead, keepsEntity: !leadWords.some(other) }
  }
  const links = leadWords.filter((w) => LINK.test(w))
  const head = leadWords.slice(
    0,
    leadWords.findIndex((w) => LINK.test(w)),
  )
  // "treatment of old mice with rapamycin", "inhibition of mTOR signaling by rapamycin": the agent is the mention.
  const agent =
    /^(?:by|with)$/i.test(leadWords.filter((w) => !STATE.test(w)).at(-1) ?? '') &&
    (TREATMENT.test(leadWords[0]) || (head.length > 0 && MANIPULATION.test(head.at(-1)!)))
  const treatedWith = TREATMENT.test(leadWords[0]) && leadWords.some((w) => /^with$/i.test(w))
  if (agent || treatedWith) return { lead, keepsEntity: true }
  // "inhibition of (the) (endogenous) mTOR": one link, a manipulation head, only state words after it.
  const between = leadWords.slice(head.length + 1)
  const keeps =
    head.length > 0 && MANIPULATION.test(head.at(-1)!) && between.every((w) => STATE.test(w)) && links.length === 1
  return { lead, keepsEntity: keeps }
}

/** Head nouns that a coordination before them shares ("CHOP and ATF4 expression", "IL-6 and TNF levels"). */
const SHARED_HEAD = oneOf(
  'expression',
  'changes',
  'levels?',
  'concentrations?',
  'activity',
  'activation',
  'signal(?:l)?ing',
  'phosphorylation',
  'genes?',
  'proteins?',
  'mRNAs?',
  'pathways?',
  'production',
  'secretion',
  'release',
  'content',
  'abundance',
)
/** Measures that relate two things: the side needs both ("the association of TSC1 and TSC2"). */
const RELATIONAL =
  /\b(?:association|interaction|binding|ratio|affinity|balance|complex|crosstalk|cross-talk)\s+(?:of|between)\s*$/i

/**
 * What an object phrase ending at `end` continues into: "and ATF4 expression" when the coordination shares a head
 * noun, "and TSC2" after a relational head; '' when the phrase is whole; null when it is cut and its end is unclear.
 */
export function objectContinuation(text: string, end: number, gap: string, phrase: string): string | null {
  const more = continuation(text, end, gap, phrase)
  // "keratinocyte proliferation and phosphorylation of ribosomal protein S6": the shared head's complement follows.
  if (more && /^\s+of\b/i.test(text.slice(end + more.length))) return null
  return more
}

/** A list after the object: ", IL8, and TNFα gene expression", ", PKMζ and PSD-95". */
const LIST_ITEM = /^[^\s,;:.()]+(?:\s+[^\s,;:.()]+){0,3}$/
/** Where such a list ends: a stop, an adverb, a new clause or a preposition. */
const LIST_END = new RegExp(
  String.raw`[.;:()]|\s\w+ly\b|,\s*(?:which|that|whereas|while|but|and\s+(?:was|were|is|are))\b|\s(?:after|in` +
    String.raw`|at|during|with|by|from|for|on|than|to|via|through|compared|among|when|while|whereas|but)\s`,
)
function listAfter(rest: string): string | null {
  if (!/^\s*,/.test(rest)) return null
  const upTo = LIST_END.exec(rest)
  const span = upTo ? rest.slice(0, upTo.index) : rest
  const items = span
    .split(',')
    .slice(1)
    .map((x) => x.trim())
  const last = items.at(-1) ?? ''
  const final = /^(?:and|or)\s+(.+)$/.exec(last) ?? /^(.+?)\s+(?:and|or)\s+(.+)$/.exec(last)
  if (!final || items.length > 8) return null
  const ok = (item: string) =>
    LIST_ITEM.test(item) &&
    !wordsOf(item).some((w) => VERB.test(w) || FINDING_VERB.test(w) || (FILLER.test(w) && !COORDINATOR.test(w)))
  if (!items.slice(0, -1).every(ok) || !ok(last.replace(/^(?:and|or)\s+/i, '').replace(/\s+(?:and|or)\s+/i, ' ')))
    return null
  return span.replace(/\s+$/, '')
}

function continuation(text: string, end: number, gap: string, phrase: string): string | null {
  // A phrase that has its head ("MEK1 expression") takes only more heads ("and phosphorylation"): "and ERK
  // activation" is a second object, not part of the first.
  const headed = wordsOf(phrase).some((w) => SHARED_HEAD.test(w))
  const rest = text.slice(end)
  // "IL6, IL8, and TNFα gene expression", "clustering of GluA2, PKMζ and PSD-95": the object is the whole list, when
  // it is short enough to be a side; a longer one has no side of its own.
  const list = listAfter(rest)
  if (list !== null) {
    if (wordsOf(phrase).length + wordsOf(list).length <= 8) return list
    // A long list: its first member is a claim of its own ("associated with CVD events"), unless the members share
    // a head at the end ("IL6, IL8, and TNFα gene expression"), which the first lacks.
    return SHARED_HEAD.test(wordsOf(list).at(-1)!) && !headed ? null : ''
  }
  // "proliferation and tumorigenicity of Tsc1-deficient cells": the two heads share a complement that follows.
  if (/^\s*(?:and|or)\s+[\p{L}-]+\s+of\b/iu.test(rest) && wordsOf(phrase).length === 1 && !/\bof\s*$/i.test(gap))
    return null
  const coordination = /^\s*(?:and|or)\s+((?:[^\s,;:.()]+\s+){0,3}[^\s,;:.()]+)/.exec(rest)
  if (coordination) {
    const all = wordsOf(coordination[1])
    let head = all.findIndex((w) => SHARED_HEAD.test(w))
    while (head >= 0 && head + 1 < all.length && SHARED_HEAD.test(all[head + 1])) head++
    while (head >= 0 && COORDINATOR.test(all[head + 1] ?? '') && SHARED_HEAD.test(all[head + 2] ?? '')) head += 2
    const words = head >= 0 ? all.slice(0, head + 1) : all
    // "induced mTORC1 and amplified HIF-1α activity": a participle after "and" is a second verb, not a modifier.
    const clause =
      (/^[a-z]+ed$/.test(all[0]) && !/^(?:phosphorylated|acetylated|methylated|ubiquitinated|cleaved)$/.test(all[0])) ||
      words.some((w) => VERB.test(w) || FINDING_VERB.test(w) || (FILLER.test(w) && !DETERMINER.test(w)))
    if (!clause && head >= 0 && (!headed || words.every((w) => SHARED_HEAD.test(w) || COORDINATOR.test(w)))) {
      return rest.slice(0, rest.indexOf(words.at(-1)!, rest.indexOf(words[0])) + words.at(-1)!.length)
    }
    if (RELATIONAL.test(gap)) {
      const one = /^\s*(?:and|or)\s+[^\s,;:.]+/.exec(rest)!
      return wordsOf(one[0]).length === 2 ? one[0] : null
    }
    // "p53 haploinsufficiency and Tsc1 loss-triggered tumour-promoting activity": the head comes later.
    if (!clause && words.some((w) => HYPHEN_ADJECTIVE.test(w))) return null
    return ''
  }
  // "the interaction of mTOR with Raptor", "the association of TSC1 with the cytoskeleton": half of a relation.
  if (RELATIONAL.test(gap) && /^\s+(?:with|to|and)\b/i.test(rest)) return null
  return ''
}
