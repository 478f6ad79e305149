/**
 * How faithfully a story reports its abstract and its judgement, 0 to 3 (0 contradicts, 1 overstates,
 * 2 minor imprecision, 3 fully faithful), by checks anyone can re-run: every number the story states is
 * in the abstract; every organism it names is in the abstract; the design it states is the judgement's
 * study type (a trial only for a human trial whose record does not say otherwise, a cohort only for an
 * observational study...); the population it states is the organism that study type allows ("in yeast"
 * never for a trial in adults); it claims nothing in people when the study was not in people; no hype
 * words; and each finding it states (read with the same claim patterns as abstracts) matches a finding
 * of the abstract in direction. The lowest check wins. Built-in stories are scored by this check alone;
 * a model's own support verdict is capped by it. A story scored 1 or less is held back (stories/publish.ts).
 */
import { extractClaims } from './builtin/claims'
import { findMentions, lookupTerm } from '../../lexicon/matcher'
import { splitSentences } from './builtin/sentences'
import { designPhrase, HUMAN, inPeople, organismFits, type RecordFacts } from './story-words'
import { STUDY_TYPE_LABELS, type StudyType } from '../../taxonomy'
import type { StoryDraft } from './types'

/**
 * What the story is checked against beside the abstract: the judgement's study type, the record, the claims' organisms.
 */
export type SupportContext = { studyType: StudyType; record: RecordFacts; claimOrganisms: string[] }

export type SupportResult = { support: number; problems: string[] }

const HYPE = new RegExp(
  String.raw`\b(cure[sd]?|miracle|breakthrough|fountain of youth|reverses? aging|reverses? ageing` +
    String.raw`|game[- ]changer|revolutionary|immortal\w*)\b`,
  'i',
)
const HUMAN_CLAIM = new RegExp(
  String.raw`\b(in (?:\d[\d,]* )?(?:humans|people|persons|patients|(?:older |elderly |healthy ` +
    '|middle-aged )?adults|women|men|volunteers|participants)|human (?:trial|participants|volunteers)' +
    String.raw`|(?:\d[\d,]* )(?:participants|patients|volunteers))\b`,
  'i',
)

/**
 * A design the story asserts for this study ("a randomised trial", "this cohort study"), and the study types it
 * fits (taxonomy): a design only mentioned as future work ("a trial is needed") asserts nothing.
 */
const ASSERTED = String.raw`\b(?:a|an|this|the present|the new)\s+(?:[\w,-]+\s+){0,4}?`
const NOT_FUTURE = String.raw`(?!\s+(?:is|would be|will be|should be|could be|may be)\s+(?:needed|warranted|required))`
const DESIGNS: [RegExp, StudyType[], string][] = [
  [new RegExp(`${ASSERTED}trial\\b${NOT_FUTURE}`, 'gi'), ['human_trial'], 'a trial'],
  [
    new RegExp(
      `${ASSERTED}(?:cohort|observational|cross-sectional|case-control|registry|population-based)\\s+(?:study` +
        `|analysis)\\b${NOT_FUTURE}`,
      'gi',
    ),
    ['human_observational', 'computational'],
    'an observational study',
  ],
  [new RegExp(`${ASSERTED}(?:animal|mouse|rodent)\\s+study\\b`, 'gi'), ['animal'], 'an animal study'],
  [new RegExp(`${ASSERTED}invertebrate\\s+study\\b`, 'gi'), ['invertebrate'], 'an invertebrate study'],
  [new RegExp(`${ASSERTED}(?:cell|cell-culture|in vitro|tissue-culture)\\s+study\\b`, 'gi'), ['cells'], 'a cell study'],
  [
    new RegExp(
      `${ASSERTED}(?:review|meta-analysis|systematic review)\\b(?!\\s+of\\s+(?:[\\w-]+\\s+){0,2}(?:data|samples` +
        `|records|genomes?))`,
      'gi',
    ),
    ['review'],
    'a review',
  ],
  [
    new RegExp(`${ASSERTED}(?:computational|modelling|modeling|simulation)\\s+(?:study|analysis)\\b`, 'gi'),
    ['computational'],
    'a computational study',
  ],
]
/** An organism given as where the study was done: "in mice", "in 40 yeast strains". */
const POPULATION_BEFORE = /\bin\s+(?:\d[\d,]*\s+)?(?:[\w-]+\s+){0,2}$/i

/** A number with its unit when it is a share or a fold change: 40% and 40 mice are different claims. */
const NUMBER = /(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s?%|-fold)?/g
/** 14,439 and 14439 are the same number; a thousands separator is not a difference. */
const numbersIn = (text: string) => (text.match(NUMBER) ?? []).map((n) => n.replace(/[\s,]/g, ''))

export function checkSupport(story: StoryDraft, abstract: string, context: SupportContext): SupportResult {
  const studyInHumans = inPeople(context.studyType)
  const problems: string[] = []
  let support = 3
  const lower = (score: number, problem: string) => {
    support = Math.min(support, score)
    problems.push(problem)
  }
  // The journal's name is not the story's claim ("Writing in Human Molecular Genetics" names no organism).
  const unjournal = (text: string) =>
    context.record.journal ? text.split(context.record.journal).join('the journal') : text
  const told = unjournal([story.headline, story.dek, story.body].join('\n'))
  const abstractNumbers = new Set(numbersIn(abstract))
  for (const n of numbersIn(told)) {
    if (!abstractNumbers.has(n)) lower(2, `the number ${n} is not in the abstract`)
  }
  const abstractOrganisms = new Set(
    findMentions(abstract)
      .filter((m) => m.entry.type === 'organism')
      .map((m) => m.entry.key),
  )
  for (const m of findMentions(told)) {
    if (
      m.entry.type === 'organism' &&
      !abstractOrganisms.has(m.entry.key) &&
      !(studyInHumans && m.entry.key === 'NCBITaxon:9606')
    ) {
      lower(1, `the story names ${m.text}, which the abstract does not`)
    }
  }
  // The study's own organisms: people for a human study, else those of its claims that its study type allows.
  const studyOrganisms = new Set(
    studyInHumans ? [HUMAN] : context.claimOrganisms.filter((k) => organismFits(context.studyType, k)),
  )
  // A quoted title is the authors' words, not the story's; the caveats state the design too.
  const everything = [told, unjournal(story.whyItMatters), unjournal(story.caveats)]
    .join('\n')
    .replace(/"[^"\n]*"|“[^”\n]*”/g, '""')
  for (const m of findMentions(everything)) {
    if (m.entry.type !== 'organism' || studyOrganisms.has(m.entry.key)) continue
    const asPopulation = POPULATION_BEFORE.test(everything.slice(Math.max(0, m.start - 40), m.start))
    if (!organismFits(context.studyType, m.entry.key) && asPopulation)
      lower(
        1,
        `the story places the study in ${m.text}; it is judged ${STUDY_TYPE_LABELS[context.studyType].toLowerCase()}`,
      )
    else if (asPopulation && m.entry.key !== HUMAN)
      lower(2, `the story places the study in ${m.text}, which its claims do not name`)
  }
  for (const [re, fits, name] of DESIGNS) {
    re.lastIndex = 0
    const said = everything.match(re)
    if (!said) continue
    if (!fits.includes(context.studyType))
      lower(
        0,
        `the story calls the study ${name} ("${said[0].trim()}"); it is ` +
          `judged ${STUDY_TYPE_LABELS[context.studyType].toLowerCase()}`,
      )
    else if (context.studyType === 'human_trial' && designPhrase('human_trial', context.record) === 'study')
      lower(1, `the story calls the study a trial; its record describes an observational design`)
  }
  if (!studyInHumans && HUMAN_CLAIM.test(told.replace(/"[^"\n]*"|“[^”\n]*”/g, '""')))
    lower(1, 'the story speaks of effects in people; the study was not in people')
  if (HYPE.test(told)) lower(1, 'the story uses hype words')
  const setting = { organism: null, design: null, evidenceLevel: null, preprint: false, review: false }
  const sourceClaims = extractClaims(splitSentences(abstract), setting, 50)
  for (const c of extractClaims(splitSentences(told), setting, 50)) {
    if (!c.subject.entity || !c.object.entity) continue
    const same = sourceClaims.filter(
      (s) => s.subject.entity?.key === c.subject.entity!.key && s.object.entity?.key === c.object.entity!.key,
    )
    if (same.length === 0)
      lower(2, `"${c.subject.text} ${c.relation} ${c.object.text}" is not a finding the abstract states in those terms`)
    else if (c.direction && same.every((s) => s.direction && s.direction !== c.direction))
      lower(0, `the story says ${c.subject.text} ${c.direction}s ${c.object.text}; the abstract says otherwise`)
  }
  return { support, problems }
}

/** The lexicon keys of the organisms claims are about (claims carry Latin names or common names). */
export function claimOrganismKeys(claims: { organism: string | null }[]): string[] {
  const keys = new Set<string>()
  for (const c of claims) {
    const entry = c.organism ? lookupTerm(c.organism) : undefined
    if (entry?.type === 'organism') keys.add(entry.key)
  }
  return [...keys]
}
