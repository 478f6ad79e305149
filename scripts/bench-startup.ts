/**
 * Time from `bun src/index.ts` on an empty data dir to the first answer on PORT, with the demo
 * corpus loaded (issue 2: within 10 s). Runs several fresh starts and prints each and the median.
 *   bun scripts/bench-startup.ts [--runs 5]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] || 5) || 5

async function once(port: number): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'geroscope-startup-'))
  const started = performance.now()
  const child = Bun.spawn([process.execPath, 'src/index.ts'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', WORKERS: 'off' },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/v1/papers?limit=1`, { headers: { authorization: 'Bearer none' } })
        if (response.status === 401) break // answering, past the gate: the server is up
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 60_000) throw new Error('no answer within 60 s')
      await Bun.sleep(20)
    }
    const elapsed = (performance.now() - started) / 1000
    child.kill()
    await child.exited
    const stdout = await new Response(child.stdout).text()
    if (!stdout.includes('Demo API key')) throw new Error(`the demo corpus was not loaded:\n${stdout}`)
    return elapsed
  } finally {
    child.kill()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const times: number[] = []
for (let i = 0; i < runs; i++) {
  const seconds = await once(3900 + i)
  times.push(seconds)
  console.log(`run ${i + 1}: first answer after ${seconds.toFixed(2)} s`)
}
times.sort((a, b) => a - b)
console.log(`median of ${runs}: ${times[Math.floor(runs / 2)].toFixed(2)} s (min ${times[0].toFixed(2)}, max ${times.at(-1)!.toFixed(2)})`)
