/**
 * The written rules' conclusions as features of the learned judge: the study type and topic they chose,
 * the relevance rule that fired and the evidence behind it (src/pipeline/analysis/builtin/relevance.ts). The model
 * learns how far to trust each conclusion from the hand-judged records, and the words correct it.
 */
import type { RuleOutcome } from '../builtin/rules'

export type { RuleOutcome }

/**
 * The rules' answer as log-probabilities over `classes`, the offset a stacked model starts from: the
 * answer given its confidence, the rest shared evenly; relevance keeps the rule's own distribution.
 */
export function ruleOffset(classes: readonly string[], answer: string, confidence: number): number[] {
  const c = Math.min(0.98, Math.max(1 / classes.length, confidence))
  return classes.map((k) => Math.log(k === answer ? c : (1 - c) / (classes.length - 1)))
}
export const levelOffset = (levels: number[]) => levels.map((p) => Math.log(Math.max(0.005, p)))

export function ruleFeatures(rules: RuleOutcome): string[] {
  const out = [`rs:${rules.studyType}`, `rt:${rules.topic}`, `rr:${rules.relevanceRule}`]
  for (const [name, value] of Object.entries(rules.evidence)) {
    const v = Number(value)
    if (v > 0) out.push(`re:${name}`)
    if (v >= 2) out.push(`re:${name}>=2`)
    if (v >= 5) out.push(`re:${name}>=5`)
  }
  return out
}
