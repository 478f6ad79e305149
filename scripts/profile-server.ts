/**
 * Where the real service spends its CPU under load: starts `bun --cpu-prof src/index.ts` (cache off,
 * workers off) on PostgreSQL, drives one path with wrk (32 connections, rotating pro keys), stops it
 * so the profile is written, and prints the self time of the hottest functions, grouped by where they
 * live (a package, a file of ours, or the runtime's native code with no JavaScript frame).
 * scripts/profile-api.ts profiles the same work in process, without the HTTP server and its sockets.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/geroscope_speed bun scripts/profile-server.ts \
 *     [--path /api/v1/papers] [--seconds 8] [--top 15] [--port 28555]
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { corpusWithKeys } from './bench/keys'
import { startServer } from './bench/server'
import { checkWrk, numberOption, stringOption, wrk } from './bench/wrk'

const path = stringOption('path', '/api/v1/papers')
const seconds = numberOption('seconds', 8)
const top = numberOption('top', 15)
const port = numberOption('port', 28555)
checkWrk()
const { databaseUrl, keys } = await corpusWithKeys()
const dir = mkdtempSync(join(tmpdir(), 'geroscope-profile-'))
const server = await startServer(databaseUrl, port, { RESPONSE_CACHE_MB: '0' }, process.cwd(), [
  '--cpu-prof',
  `--cpu-prof-dir=${dir}`,
])
await wrk(server.url, [path], keys, 3) // warm-up, in the profile too but a small share of it
const run = await wrk(server.url, [path], keys, seconds)
await server.stop() // SIGTERM: a graceful exit writes the profile
console.log(
  `${path}: ${Math.round(run.rps)} req/s, p50 ${run.p50.toFixed(1)} ms, p99 ${run.p99.toFixed(1)} ms over ${seconds} s`,
)

type Node = { id: number; children?: number[]; callFrame: { functionName: string; url: string; lineNumber: number } }
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
if (!file) throw new Error(`no profile written in ${dir}`)
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: Node[]; samples: number[] }
const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
const where = ({ url }: Node['callFrame']) => {
  if (!url) return 'native (no JavaScript frame)'
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  return pkg ? `package ${pkg[1]}` : url.replace(/^file:\/\//, '').replace(`${process.cwd()}/`, '')
}
const byPlace = new Map<string, number>()
const byFunction = new Map<string, number>()
for (const id of profile.samples) {
  const frame = nodes.get(id)!.callFrame
  const place = where(frame)
  byPlace.set(place, (byPlace.get(place) ?? 0) + 1)
  const name = `${frame.functionName || '(anonymous)'} · ${place}${frame.url ? `:${frame.lineNumber + 1}` : ''}`
  byFunction.set(name, (byFunction.get(name) ?? 0) + 1)
}
const total = profile.samples.length
const print = (title: string, counts: Map<string, number>) => {
  console.log(`\n${title} (${total.toLocaleString('en-US')} samples)`)
  for (const [name, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * n) / total).toFixed(1).padStart(5)}%  ${name}`)
}
// Inclusive time: a sample counts for every function on its stack (once each), so a hook's figure
// includes the driver, serializer or hashing it calls. Our own files and Elysia's only.
const parent = new Map<number, number>()
for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id)
const inclusive = new Map<string, number>()
for (const leaf of profile.samples) {
  const seen = new Set<string>()
  for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
    const frame = nodes.get(id)!.callFrame
    const place = where(frame)
    if (!(place.startsWith('src/') || place === 'package elysia')) continue
    seen.add(`${frame.functionName || '(anonymous)'} · ${place}:${frame.lineNumber + 1}`)
  }
  for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + 1)
}
print('by place, self time', byPlace)
print('by function, self time', byFunction)
print('inclusive, src/ and elysia (total time)', inclusive)
process.exit(0)
