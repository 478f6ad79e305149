/**
 * Reliability by confidence decile: the mean confidence given and the share of answers the editors agreed with, and
 * the expected calibration error over the deciles (their gaps weighted by answers). A decile holding 20 or more
 * answers is calibrated when the two are within 10 points (issue 34's target). Used by scripts/eval/reliability.ts
 * and scripts/eval/calibration-designs.ts.
 */
import type { Calibration } from './evaluate'

export type Decile = {
  measure: string
  decile: string
  n: number
  confidence: number
  accuracy: number
  calibrated: boolean | null
}

export function deciles(measure: string, rows: Calibration): Decile[] {
  const out: Decile[] = []
  for (let d = 0; d < 10; d++) {
    const inDecile = rows.filter((r) => Math.min(9, Math.floor(r.confidence * 10)) === d)
    if (inDecile.length === 0) continue
    const confidence = inDecile.reduce((s, r) => s + r.confidence, 0) / inDecile.length
    const accuracy = inDecile.filter((r) => r.correct).length / inDecile.length
    out.push({
      measure,
      decile: `${d / 10}–${(d + 1) / 10}`,
      n: inDecile.length,
      confidence,
      accuracy,
      calibrated: inDecile.length >= 20 ? Math.abs(accuracy - confidence) <= 0.1 : null,
    })
  }
  return out
}

/** The gap between confidence and share right, averaged over deciles weighted by answers (0 to 1). */
export function calibrationError(of: Decile[]): number {
  const n = of.reduce((sum, r) => sum + r.n, 0)
  return of.reduce((sum, r) => sum + r.n * Math.abs(r.confidence - r.accuracy), 0) / n
}
