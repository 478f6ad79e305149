/**
 * A softmax model laid out for scoring in service: the same answer as `probabilities(model, featuresFor(...))`
 * (test/analysis/learned-model.test.ts checks it on real records) without building a string per word or word
 * pair. Features are looked up by their parts: word features in one map per prefix (t, s, a), word pairs in a map
 * of maps (first word, then second), everything else by its whole name. Building every feature name cost most of
 * the model's time per paper (docs/benchmarks.md).
 */
import type { PaperInput } from '../types'
import type { Reading } from '../builtin/reading'
import { contentWord, words } from './features'
import { ruleFeatures, type RuleOutcome } from './rules-as-features'
import { softmax, type SoftmaxModel } from './softmax'

export type CompiledModel = {
  classes: string[]
  bias: number[]
  temperature: number
  title: Map<string, number[]>
  subject: Map<string, number[]>
  abstract: Map<string, number[]>
  pairs: Map<string, Map<string, number[]>>
  named: Map<string, number[]>
}

const compiledModels = new WeakMap<SoftmaxModel, CompiledModel>()

export function compile(model: SoftmaxModel): CompiledModel {
  const done = compiledModels.get(model)
  if (done) return done
  const out: CompiledModel = {
    classes: model.classes,
    bias: model.bias,
    temperature: model.temperature,
    title: new Map(),
    subject: new Map(),
    abstract: new Map(),
    pairs: new Map(),
    named: new Map(),
  }
  for (const [name, w] of Object.entries(model.weights)) {
    const colon = name.indexOf(':')
    const prefix = colon > 0 ? name.slice(0, colon) : ''
    const rest = name.slice(colon + 1)
    if (prefix === 't') out.title.set(rest, w)
    else if (prefix === 's') out.subject.set(rest, w)
    else if (prefix === 'a') out.abstract.set(rest, w)
    else if (prefix === 'b') {
      // Words never hold "_" (features.ts splits on anything but letters, digits, + and -), so the first "_" splits the
      // pair.
      const cut = rest.indexOf('_')
      const first = rest.slice(0, cut)
      let seconds = out.pairs.get(first)
      if (!seconds) out.pairs.set(first, (seconds = new Map()))
      seconds.set(rest.slice(cut + 1), w)
    } else out.named.set(name, w)
  }
  compiledModels.set(model, out)
  return out
}

function add(scores: Float64Array, w: number[]) {
  for (let k = 0; k < scores.length; k++) scores[k] += w[k]
}

/** Adds the weight of each distinct word of `ws` found in `table`. */
function addWords(scores: Float64Array, table: Map<string, number[]>, ws: string[], seen: Set<string>) {
  for (const w of ws) {
    const weight = table.get(w)
    if (weight && contentWord(w) && !seen.has(w)) {
      seen.add(w)
      add(scores, weight)
    }
  }
}

function addPairs(scores: Float64Array, pairs: CompiledModel['pairs'], ws: string[], seen: Set<string>) {
  for (let i = 1; i < ws.length; i++) {
    const seconds = pairs.get(ws[i - 1])
    if (!seconds) continue
    const weight = seconds.get(ws[i])
    if (!weight || (!contentWord(ws[i - 1]) && !contentWord(ws[i]))) continue
    const key = `${ws[i - 1]}_${ws[i]}`
    if (seen.has(key)) continue
    seen.add(key)
    add(scores, weight)
  }
}

/**
 * The model's class probabilities for a paper; `offset` as in `probabilities` (the rules' answer, for a stacked model).
 */
export function scorePaper(
  model: CompiledModel,
  paper: PaperInput,
  reading: Reading,
  rules: RuleOutcome | null,
  offset?: number[],
  withMesh = true,
): number[] {
  const scores = new Float64Array(model.bias.length)
  for (let k = 0; k < scores.length; k++) scores[k] = model.bias[k] + (offset ? offset[k] : 0)
  const titleWords = words(reading.title)
  const abstractWords = words(reading.abstract)
  addWords(scores, model.title, titleWords, new Set())
  const subjectSeen = new Set<string>()
  for (const part of reading.parts)
    if (part.role === 'aim' || part.role === 'conclusion')
      addWords(scores, model.subject, words(part.text), subjectSeen)
  addWords(scores, model.abstract, abstractWords, new Set())
  const pairSeen = new Set<string>()
  addPairs(scores, model.pairs, titleWords, pairSeen)
  addPairs(scores, model.pairs, abstractWords, pairSeen)
  const named = new Set<string>()
  for (const type of paper.publicationTypes) named.add(`pt:${type.trim().toLowerCase()}`)
  if (withMesh) for (const h of paper.meshHeadings) named.add(`m:${h.descriptor.toLowerCase()}`)
  if (!reading.abstract) named.add('no-abstract')
  if (rules) for (const f of ruleFeatures(rules)) named.add(f)
  for (const f of named) {
    const weight = model.named.get(f)
    if (weight) add(scores, weight)
  }
  return softmax(Array.from(scores, (s) => s / model.temperature))
}
