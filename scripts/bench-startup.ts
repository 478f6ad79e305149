/**
 * Time from `npm start` (what the README's quick start runs) on an empty data dir to the first answer
 * on PORT, with the demo corpus loaded (issue 2: within 10 s). Runs several fresh starts and prints
 * each, where its time went (the start-up's own step lines: database, demo papers, intelligence...)
 * and the median. WORKERS=off, as before: no harvest reaching for Europe PMC during the measure.
 *   bun scripts/bench-startup.ts [--runs 5] [--bun]   (--bun: `bun src/index.ts`, without npm's own start)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] || 5) || 5
const command = process.argv.includes('--bun') ? [process.execPath, 'src/index.ts'] : ['npm', 'start', '--silent']

type Line = { msg: string; step?: string; seconds?: number; papers?: number }

/** The step lines start-up printed (src/lifecycle/demo-progress.ts and start.ts), as "step 1.2 s". */
function steps(stdout: string): string {
  const lines = stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line)
  return lines
    .filter((l) => l.step && l.seconds !== undefined && l.papers === undefined)
    .map((l) => `${l.step} ${l.seconds!.toFixed(1)} s`)
    .join(', ')
}

/** A process and everything it started (npm runs the service as its child): children first. */
function killTree(pid: number): void {
  const children = new TextDecoder()
    .decode(Bun.spawnSync(['pgrep', '-P', String(pid)]).stdout)
    .split('\n')
    .filter(Boolean)
    .map(Number)
  for (const child of children) killTree(child)
  try {
    process.kill(pid, 'SIGTERM')
  } catch {
    // gone already
  }
}

async function once(port: number): Promise<{ seconds: number; steps: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'geroscope-startup-'))
  const started = performance.now()
  const child = Bun.spawn(command, {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', WORKERS: 'off' },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/v1/papers?limit=1`, {
          headers: { authorization: 'Bearer none' },
        })
        if (response.status === 401) break // answering, past the gate: the server is up
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 180_000) throw new Error('no answer within 180 s')
      await Bun.sleep(20)
    }
    const elapsed = (performance.now() - started) / 1000
    await Bun.sleep(300) // the lines after the listening one
    killTree(child.pid)
    await child.exited
    const stdout = await new Response(child.stdout).text()
    if (!stdout.includes('Demo API key')) throw new Error(`the demo corpus was not loaded:\n${stdout}`)
    return { seconds: elapsed, steps: steps(stdout) }
  } finally {
    killTree(child.pid)
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const loadBefore = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ')
const times: number[] = []
for (let i = 0; i < runs; i++) {
  const { seconds, steps } = await once(3900 + i)
  times.push(seconds)
  console.log(`run ${i + 1}: first answer after ${seconds.toFixed(2)} s (${steps})`)
}
times.sort((a, b) => a - b)
console.log(
  `${command.join(' ')}; load average before and after: ${loadBefore} / ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
)
console.log(
  `median of ${runs}: ${times[Math.floor(runs / 2)].toFixed(2)} s (min ${times[0].toFixed(2)}, max ${times.at(-1)!.toFixed(2)})`,
)
