/**
 * Confidence that means what it says: a map from the confidence a judge gives to the share of its answers an
 * editor agreed with at that confidence, fitted on the hand-judged tuning half (scripts/train-analyzer.ts) and
 * applied to every confidence the built-in analyzer reports. The map is monotone (isotonic), so a more confident
 * answer never reports less confidence than a less confident one, and linear between its knots.
 */

/** [confidence given, share correct], confidence ascending. */
export type CalibrationMap = [number, number][]

export type Observation = { confidence: number; correct: boolean }

/**
 * Sorts the observations by confidence and cuts them into bins of at least `minBin` (ties never split), then pools
 * neighbouring bins whose accuracy falls as confidence rises (pool adjacent violators), weighting by size. Each
 * knot sits at its bin's mean confidence.
 */
export function fitCalibration(observations: Observation[], minBin = 40): CalibrationMap {
  const sorted = [...observations].sort((a, b) => a.confidence - b.confidence)
  type Block = { n: number; sumConfidence: number; correct: number }
  const bins: Block[] = []
  let current: Block = { n: 0, sumConfidence: 0, correct: 0 }
  sorted.forEach((o, i) => {
    current.n++
    current.sumConfidence += o.confidence
    if (o.correct) current.correct++
    const tieAhead = i + 1 < sorted.length && sorted[i + 1].confidence === o.confidence
    if (current.n >= minBin && !tieAhead && sorted.length - i - 1 >= minBin) {
      bins.push(current)
      current = { n: 0, sumConfidence: 0, correct: 0 }
    }
  })
  if (current.n > 0) bins.push(current)
  const pooled: Block[] = []
  for (const bin of bins) {
    pooled.push({ ...bin })
    while (
      pooled.length > 1 &&
      pooled.at(-1)!.correct / pooled.at(-1)!.n <= pooled.at(-2)!.correct / pooled.at(-2)!.n
    ) {
      const last = pooled.pop()!
      const before = pooled.at(-1)!
      before.n += last.n
      before.sumConfidence += last.sumConfidence
      before.correct += last.correct
    }
  }
  const round = (x: number) => Math.round(x * 1000) / 1000
  return pooled.map((b) => [round(b.sumConfidence / b.n), round(b.correct / b.n)])
}

/**
 * The calibrated confidence: linear between knots, the end knots' values beyond them; an empty map changes
 * nothing. Kept within 0.01–0.99: certainty is an editor's (a corrected judgement has confidence 1).
 */
export function calibrate(map: CalibrationMap, confidence: number): number {
  const bounded = (x: number) => Math.min(0.99, Math.max(0.01, Math.round(x * 1000) / 1000))
  if (map.length === 0) return confidence
  if (confidence <= map[0][0]) return bounded(map[0][1])
  for (let i = 1; i < map.length; i++) {
    const [x1, y1] = map[i]
    if (confidence <= x1) {
      const [x0, y0] = map[i - 1]
      return bounded(y0 + ((confidence - x0) / (x1 - x0)) * (y1 - y0))
    }
  }
  return bounded(map.at(-1)![1])
}

/**
 * Confidence read with a second signal: where the answer came from (for relevance, the written rule that fired; for
 * study type, the rules alone or the learned model agreeing with or overruling them; for topic, a named topic or
 * "other"). One monotone map of the confidence cannot tell a confidently wrong rule from a right one at the same
 * number; a map per source can. Each source's map is shrunk toward the pooled map by `prior` answers, so a source
 * seen a few times says little: calibrated = (n x own + prior x pooled) / (n + prior); and only within the range of
 * confidences the source's answers had (beyond it, the pooled map).
 */
export type GroupedCalibration = {
  prior: number
  pooled: CalibrationMap
  groups: Record<string, { n: number; lo: number; hi: number; map: CalibrationMap }>
}
export type GroupedObservation = Observation & { group: string }

export function fitGrouped(
  observations: GroupedObservation[],
  minBin: number,
  groupBin: number,
  prior: number,
): GroupedCalibration {
  const byGroup = new Map<string, Observation[]>()
  for (const o of observations) {
    let list = byGroup.get(o.group)
    if (!list) byGroup.set(o.group, (list = []))
    list.push(o)
  }
  const groups: GroupedCalibration['groups'] = {}
  for (const name of [...byGroup.keys()].sort()) {
    const list = byGroup.get(name)!
    const confidences = list.map((o) => o.confidence)
    groups[name] = {
      n: list.length,
      lo: Math.min(...confidences),
      hi: Math.max(...confidences),
      map: fitCalibration(list, groupBin),
    }
  }
  return { prior, pooled: fitCalibration(observations, minBin), groups }
}

export function calibrateGrouped(calibration: GroupedCalibration, group: string, confidence: number): number {
  const pooled = calibrate(calibration.pooled, confidence)
  const own = calibration.groups[group]
  // A source's map speaks only for the confidences its answers had: beyond them, the pooled map.
  if (!own || confidence < own.lo || confidence > own.hi) return pooled
  const blended = (own.n * calibrate(own.map, confidence) + calibration.prior * pooled) / (own.n + calibration.prior)
  return Math.min(0.99, Math.max(0.01, Math.round(blended * 1000) / 1000))
}
