/**
 * Multinomial logistic regression over sparse binary features, with an L2 penalty: the learned judge's
 * model. Training is full-batch Adam from zero weights for a fixed number of steps, every sum in a fixed
 * order, so the same records give the same weights on every run (scripts/train-analyzer.ts; the test in
 * test/analysis/learned-model.test.ts retrains and compares). Ours rather than a library's: the kept
 * JavaScript implementations (ml-logistic-regression) take a dense matrix, records x vocabulary, and
 * fit one class against the rest, where this needs the active features of each record only and one
 * softmax whose probabilities sum to one, which the contract's probability-weighted relevance needs.
 */

export type SoftmaxModel = {
  classes: string[]
  /** feature name -> one weight per class */
  weights: Record<string, number[]>
  bias: number[]
  /** Divides the scores before the softmax: fitted on out-of-fold predictions so confidences are calibrated. */
  temperature: number
}

/** `offset`: log-probabilities another judge gave each class (the written rules'), added to the scores. */
export type Example = { features: string[]; label: string; weight?: number; offset?: number[] }
/**
 * `fitBias: false` keeps the class biases at zero, so a stacked model starts from and stays anchored to its offsets.
 */
export type TrainOptions = { l2: number; steps: number; learningRate: number; fitBias?: boolean }

/** The weights as a Map, made once per model: a Map lookup is several times faster than a large object's. */
const lookups = new WeakMap<SoftmaxModel, Map<string, number[]>>()
function lookupOf(model: SoftmaxModel): Map<string, number[]> {
  let map = lookups.get(model)
  if (!map) lookups.set(model, (map = new Map(Object.entries(model.weights))))
  return map
}

export function probabilities(
  model: SoftmaxModel,
  features: Iterable<string>,
  offset?: number[],
  temperature = model.temperature,
): number[] {
  const scores = offset ? model.bias.map((b, k) => b + offset[k]) : [...model.bias]
  const weights = lookupOf(model)
  for (const f of features) {
    const w = weights.get(f)
    if (w) for (let k = 0; k < scores.length; k++) scores[k] += w[k]
  }
  return softmax(scores.map((s) => s / temperature))
}

/** The index of the largest value (the first of equals). */
export function argmax(values: ArrayLike<number>): number {
  let k = 0
  for (let i = 1; i < values.length; i++) if (values[i] > values[k]) k = i
  return k
}

export function softmax(scores: number[]): number[] {
  const max = Math.max(...scores)
  const e = scores.map((s) => Math.exp(s - max))
  const sum = e.reduce((a, b) => a + b, 0)
  return e.map((x) => x / sum)
}

export function train(
  examples: Example[],
  classes: string[],
  vocabulary: string[],
  options: TrainOptions,
): SoftmaxModel {
  const index = new Map(vocabulary.map((f, i) => [f, i]))
  const K = classes.length
  const V = vocabulary.length
  const rows = examples.map((e) => ({
    active: e.features
      .map((f) => index.get(f))
      .filter((i): i is number => i !== undefined)
      .sort((a, b) => a - b),
    y: classes.indexOf(e.label),
    weight: e.weight ?? 1,
    offset: e.offset,
  }))
  const totalWeight = rows.reduce((s, r) => s + r.weight, 0)
  const W = new Float64Array(V * K)
  const b = new Float64Array(K)
  const gW = new Float64Array(V * K)
  const gb = new Float64Array(K)
  const mW = new Float64Array(V * K),
    vW = new Float64Array(V * K),
    mb = new Float64Array(K),
    vb = new Float64Array(K)
  const beta1 = 0.9,
    beta2 = 0.999,
    eps = 1e-8
  const scores = new Float64Array(K)
  for (let step = 1; step <= options.steps; step++) {
    gW.fill(0)
    gb.fill(0)
    for (const row of rows) {
      for (let k = 0; k < K; k++) scores[k] = b[k] + (row.offset ? row.offset[k] : 0)
      for (const i of row.active) for (let k = 0; k < K; k++) scores[k] += W[i * K + k]
      let max = -Infinity
      for (let k = 0; k < K; k++) max = Math.max(max, scores[k])
      let sum = 0
      for (let k = 0; k < K; k++) sum += scores[k] = Math.exp(scores[k] - max)
      for (let k = 0; k < K; k++) {
        const g = (row.weight * (scores[k] / sum - (k === row.y ? 1 : 0))) / totalWeight
        gb[k] += g
        for (const i of row.active) gW[i * K + k] += g
      }
    }
    for (let j = 0; j < V * K; j++) gW[j] += options.l2 * W[j]
    const lr = (options.learningRate * Math.sqrt(1 - beta2 ** step)) / (1 - beta1 ** step)
    for (let j = 0; j < V * K; j++) {
      mW[j] = beta1 * mW[j] + (1 - beta1) * gW[j]
      vW[j] = beta2 * vW[j] + (1 - beta2) * gW[j] * gW[j]
      W[j] -= (lr * mW[j]) / (Math.sqrt(vW[j]) + eps)
    }
    if (options.fitBias !== false)
      for (let k = 0; k < K; k++) {
        mb[k] = beta1 * mb[k] + (1 - beta1) * gb[k]
        vb[k] = beta2 * vb[k] + (1 - beta2) * gb[k] * gb[k]
        b[k] -= (lr * mb[k]) / (Math.sqrt(vb[k]) + eps)
      }
  }
  // Rounded to four decimals, and features whose every weight is below 0.02 dropped: the committed
  // file stays small and a retrain compares equal.
  const round = (x: number) => Math.round(x * 1e4) / 1e4
  const weights: Record<string, number[]> = {}
  vocabulary.forEach((f, i) => {
    const w = Array.from({ length: K }, (_, k) => round(W[i * K + k]))
    if (w.some((x) => Math.abs(x) >= 0.02)) weights[f] = w
  })
  return { classes, weights, bias: Array.from(b, round), temperature: 1 }
}

/** The temperature that minimises the log loss of out-of-fold predictions (scores before the softmax). */
export function fitTemperature(
  outOfFold: { model: SoftmaxModel; features: string[]; offset?: number[]; label: string }[],
): number {
  let best = 1
  let bestLoss = Infinity
  for (let t = 0.4; t <= 4.001; t += 0.05) {
    let loss = 0
    for (const { model, features, offset, label } of outOfFold)
      loss -= Math.log(Math.max(1e-12, probabilities(model, features, offset, t)[model.classes.indexOf(label)]))
    if (loss < bestLoss) {
      bestLoss = loss
      best = Math.round(t * 100) / 100
    }
  }
  return best
}
