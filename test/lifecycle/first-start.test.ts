/**
 * A first start says what it does: the real service in a child process on a fresh database (embedded
 * PGlite, or a new PostgreSQL database when DATABASE_URL is set), with the demo corpus, prints its
 * progress while the corpus loads (papers n/2,000, then each step with its time) and ends with the
 * total, all before it says it is listening; without the demo, an empty database is met with how to
 * load it.
 */
import { describe, expect, test } from 'bun:test'
import { testDriver } from '../support/database'
import { freshServiceEnv, startServiceProcess, type LogLine } from '../support/service-process'

async function started(env: Record<string, string>): Promise<LogLine[]> {
  const service = startServiceProcess(env)
  try {
    if (!(await service.ready)) throw new Error(`the service did not start: ${await service.stderr()}`)
    await Bun.sleep(200) // the lines after the listening one
    return [...service.lines]
  } finally {
    service.child.kill()
    await service.child.exited
  }
}

const index = (lines: LogLine[], test: (line: LogLine) => boolean) => lines.findIndex(test)

describe(`a first start on ${testDriver}`, () => {
  test('with the demo corpus: progress lines while it loads, each step timed, then the total, before listening', async () => {
    const lines = await started({ ...(await freshServiceEnv('firststart')), DEMO_DATA: 'on' })
    for (const line of lines) expect(line.level).not.toBe('unstructured') // every line stays JSON

    const listening = index(lines, (l) => l.msg.startsWith('Geroscope is listening'))
    // First the wait it is about to make, said beforehand (nothing can be printed while PGlite creates its database).
    expect(lines[0].msg).toEqual(
      testDriver === 'postgres'
        ? 'Opening the database: PostgreSQL (DATABASE_URL)'
        : expect.stringMatching(
            /^Creating the embedded database \(PGlite in .+\) and applying its migrations: first start only, the longest wait$/,
          ),
    )
    const open = index(lines, (l) => l.step === 'open')
    const schema = index(lines, (l) => l.step === 'schema')
    expect([open, schema, index(lines, (l) => l.step === 'lexicon')]).toEqual([1, 2, 3])
    expect(lines[open].msg).toMatch(/^Database open in \d+\.\d s$/)
    expect(lines[schema].msg).toMatch(/^Database schema up to date in \d+\.\d s$/)

    const begin = index(lines, (l) => l.step === 'start')
    expect(lines[begin].msg).toBe(
      'Loading the synthetic demo corpus (2,000 papers) into the empty database (first start only)',
    )
    expect(begin).toBeGreaterThan(schema)

    // Papers chunk by chunk, counting up to the whole corpus, each with the time so far.
    const progress = lines.filter((l) => l.step === 'papers' && typeof l.papers === 'number')
    expect(progress.length).toBeGreaterThanOrEqual(2)
    const counts = progress.map((l) => l.papers as number)
    expect(counts).toEqual([...counts].sort((a, b) => a - b))
    expect(counts.at(-1)).toBe(2000)
    expect(progress.at(-1)!.msg).toMatch(/^Demo corpus: papers 2,000\/2,000 \(\d+\.\d s\)$/)
    expect(progress[0].msg).toMatch(/^Demo corpus: papers \d{3}\/2,000 \(\d+\.\d s\)$/)

    // Every step once, in order, with the time it took.
    const steps = lines.filter(
      (l) =>
        typeof l.step === 'string' &&
        l.papers === undefined &&
        !['start', 'open', 'schema', 'lexicon'].includes(l.step as string),
    )
    expect(steps.map((l) => l.step)).toEqual([
      'entities',
      'papers',
      'statistics',
      'accounts',
      'intelligence',
      'claim_sides',
      'done',
    ])
    for (const step of steps) {
      expect(step.seconds).toBeNumber()
      expect(step.msg).toMatch(/ in \d+\.\d s$/)
    }
    expect(steps.find((l) => l.step === 'papers')!.msg).toStartWith('Demo corpus: 2,000 papers written')

    // It ends with the whole load's time, no less than its steps', and only then listens.
    const done = steps.at(-1)!
    expect(done.msg).toMatch(/^Demo corpus loaded in \d+\.\d s$/)
    const parts = steps.slice(0, -1).reduce((n, l) => n + (l.seconds as number), 0)
    expect(done.seconds as number).toBeGreaterThanOrEqual(Math.floor(parts * 10) / 10 - 0.4) // each rounded to 0.1 s
    expect(index(lines, (l) => l === done)).toBeLessThan(listening)
    expect(lines.some((l) => l.msg.includes('DEMO_DATA=on'))).toBe(false)
  }, 300_000)

  test('without the demo corpus, an empty database: it says how to load it', async () => {
    const lines = await started({ ...(await freshServiceEnv('emptystart')), DEMO_DATA: 'off' })
    const hint = lines.find((l) => l.msg.includes('DEMO_DATA=on'))
    expect(hint?.msg).toStartWith(
      'The database holds no papers yet. To try the service with the synthetic demo corpus, start once with DEMO_DATA=on',
    )
    expect(lines.some((l) => l.step === 'start' || l.step === 'papers')).toBe(false) // and loads nothing
  }, 300_000)
})
