/**
 * What start-up says while it loads the demo corpus into an empty database (src/seed/demo.ts), so a
 * first start is not 10 to 30 silent seconds: one log line when the load begins, one per chunk of
 * papers written ("Demo corpus: papers 500/2,000 (1.2 s)"), one per step done with the time it took,
 * and one with the total. Each line also carries its figures as fields (step, papers, total, seconds).
 */
import type { Logger } from 'pino'
import type { DemoProgress, DemoStep } from '../seed/demo'

const seconds = (ms: number) => Math.round(ms / 100) / 10
const n = (value: number) => value.toLocaleString('en-US')

/** What each step did, for "Demo corpus: <what> in 1.2 s". */
const STEP_WORDS: Record<DemoStep | 'claim_sides', string> = {
  entities: 'lexicon and MeSH entities created',
  papers: 'papers written with their judgements, stories, entities and claims',
  statistics: 'table statistics and papers per entity counted',
  accounts: "demo account, API key, readers' upvotes and feeds added",
  intelligence: 'contradictions and knowledge gaps computed',
  claim_sides: 'claim sides linked to lexicon entities',
}

export type DemoProgressLog = {
  onProgress: (progress: DemoProgress) => void
  /** A step start-up runs itself after the load (linking claim sides), reported like the load's own. */
  step: (step: 'claim_sides', elapsedMs: number) => void
  /** The closing line: the whole load, its own steps and start-up's. */
  finish: () => void
}

export function demoProgressLog(log: Pick<Logger, 'info'>): DemoProgressLog {
  const started = performance.now()
  let papers = 0
  const step = (name: DemoStep | 'claim_sides', elapsedMs: number) => {
    const words = name === 'papers' ? `${n(papers)} ${STEP_WORDS.papers}` : STEP_WORDS[name]
    log.info({ step: name, seconds: seconds(elapsedMs) }, `Demo corpus: ${words} in ${seconds(elapsedMs).toFixed(1)} s`)
  }
  return {
    onProgress: (p) => {
      if (p.kind === 'start') {
        log.info(
          { step: 'start', total: p.papers },
          `Loading the synthetic demo corpus (${n(p.papers)} papers) into the empty database (first start only)`,
        )
      } else if (p.kind === 'papers') {
        papers = p.papers
        log.info(
          { step: 'papers', papers: p.papers, total: p.total, seconds: seconds(p.elapsedMs) },
          `Demo corpus: papers ${n(p.papers)}/${n(p.total)} (${seconds(p.elapsedMs).toFixed(1)} s)`,
        )
      } else {
        step(p.step, p.elapsedMs)
      }
    },
    step,
    finish: () => {
      const total = seconds(performance.now() - started)
      log.info({ step: 'done', seconds: total }, `Demo corpus loaded in ${total.toFixed(1)} s`)
    },
  }
}
