/**
 * System calls that write to sockets, per answer, for one path of the real service (cache off):
 * how docs/benchmarks.md found Bun writing a large answer's head one fragment per send()
 * (src/platform/response-body.ts). Runs `strace -c -f` on the service while wrk asks the path.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/geroscope_speed bun scripts/count-sends.ts \
 *     [--path /api/v1/papers] [--seconds 5] [--port 28557]
 * Needs strace (apt-get install strace) and wrk. Under strace everything is slower: read the counts,
 * not the speed.
 */
import { readFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { corpusWithKeys } from './bench/keys'
import { startServer } from './bench/server'
import { checkWrk, numberOption, stringOption, wrk } from './bench/wrk'

const path = stringOption('path', '/api/v1/papers')
const seconds = numberOption('seconds', 5)
const port = numberOption('port', 28557)
checkWrk()
if (!Bun.which('strace')) throw new Error('strace is not installed: apt-get install strace')
const { databaseUrl, keys } = await corpusWithKeys(500)
const server = await startServer(databaseUrl, port, { RESPONSE_CACHE_MB: '0' })
try {
  await wrk(server.url, [path], keys, 2) // warm-up: statements prepared, pools open
  const out = join(mkdtempSync(join(tmpdir(), 'geroscope-strace-')), 'counts')
  const strace = Bun.spawn(['strace', '-c', '-f', '-p', String(server.pid), '-o', out], {
    stdout: 'ignore',
    stderr: 'ignore',
  })
  await Bun.sleep(500) // attached
  const run = await wrk(server.url, [path], keys, seconds, 8)
  strace.kill('SIGINT')
  await strace.exited
  const calls = new Map<string, number>()
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$/.exec(line)
    if (m) calls.set(m[2]!, Number(m[1]))
  }
  const per = (name: string) => ((calls.get(name) ?? 0) / run.requests).toFixed(1)
  console.log(
    `${path}: ${run.requests} answers under strace; per answer: sendto ${per('sendto')}, sendmsg ${per('sendmsg')}, recvfrom ${per('recvfrom')}, write ${per('write')}`,
  )
} finally {
  await server.stop()
}
process.exit(0)
