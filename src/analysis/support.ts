/**
 * How faithfully a story reports its abstract, 0 to 3 (0 contradicts, 1 overstates, 2 minor
 * imprecision, 3 fully faithful), by checks anyone can re-run: every number the story states is in
 * the abstract; every organism it names is in the abstract; it claims nothing in people when the
 * study was not in people; no hype words; and each finding it states (read with the same claim
 * patterns as abstracts) matches a finding of the abstract in direction. The lowest check wins.
 * Built-in stories are scored by this check alone; a model's own support verdict is capped by it.
 */
import { extractClaims } from './builtin/claims'
import { findMentions } from './builtin/matcher'
import { splitSentences } from './builtin/sentences'
import type { StoryDraft } from './types'

export type SupportResult = { support: number; problems: string[] }

const HYPE = /\b(cure[sd]?|miracle|breakthrough|fountain of youth|reverses? aging|reverses? ageing|game[- ]changer|revolutionary|immortal\w*)\b/i
const HUMAN_CLAIM = /\b(in (?:humans|people|patients|adults|older adults|women|men)|human (?:trial|participants))\b/i
/** A number with its unit when it is a share or a fold change: 40% and 40 mice are different claims. */
const NUMBER = /(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s?%|-fold)?/g
/** 14,439 and 14439 are the same number; a thousands separator is not a difference. */
const numbersIn = (text: string) => (text.match(NUMBER) ?? []).map((n) => n.replace(/[\s,]/g, ''))

export function checkSupport(story: StoryDraft, abstract: string, studyInHumans: boolean): SupportResult {
  const problems: string[] = []
  let support = 3
  const lower = (score: number, problem: string) => {
    support = Math.min(support, score)
    problems.push(problem)
  }
  const told = [story.headline, story.dek, story.body].join('\n')
  const abstractNumbers = new Set(numbersIn(abstract))
  for (const n of numbersIn(told)) {
    if (!abstractNumbers.has(n)) lower(2, `the number ${n} is not in the abstract`)
  }
  const abstractOrganisms = new Set(findMentions(abstract).filter((m) => m.entry.type === 'organism').map((m) => m.entry.key))
  for (const m of findMentions(told)) {
    if (m.entry.type === 'organism' && !abstractOrganisms.has(m.entry.key) && !(studyInHumans && m.entry.key === 'NCBITaxon:9606')) {
      lower(1, `the story names ${m.text}, which the abstract does not`)
    }
  }
  if (!studyInHumans && HUMAN_CLAIM.test(told)) lower(1, 'the story speaks of effects in people; the study was not in people')
  if (HYPE.test(told)) lower(1, 'the story uses hype words')
  const setting = { organism: null, design: null, evidenceLevel: null, preprint: false, review: false }
  const sourceClaims = extractClaims(splitSentences(abstract), setting, 50)
  for (const c of extractClaims(splitSentences(told), setting, 50)) {
    if (!c.subject.entity || !c.object.entity) continue
    const same = sourceClaims.filter((s) => s.subject.entity?.key === c.subject.entity!.key && s.object.entity?.key === c.object.entity!.key)
    if (same.length === 0) lower(2, `"${c.subject.text} ${c.relation} ${c.object.text}" is not a finding the abstract states in those terms`)
    else if (c.direction && same.every((s) => s.direction && s.direction !== c.direction)) lower(0, `the story says ${c.subject.text} ${c.direction}s ${c.object.text}; the abstract says otherwise`)
  }
  return { support, problems }
}
