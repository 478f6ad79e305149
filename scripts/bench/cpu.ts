/**
 * CPU time from /proc: of the service process (all its threads), and of the PostgreSQL backends
 * serving it (found by application_name, which the service takes from PGAPPNAME). Linux only.
 */
import { readFileSync } from 'node:fs'
import postgres from 'postgres'

const TICKS_PER_SECOND = 100 // USER_HZ, `getconf CLK_TCK`, 100 on Linux

/** User + system CPU seconds a process has used so far (0 for a process gone). */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ') // the name may hold spaces
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND // utime, stime
  } catch {
    return 0
  }
}

/** The backends' pids now (a pool opens connections lazily: ask after the warm-up). */
export async function backendPids(databaseUrl: string, applicationName: string): Promise<number[]> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  try {
    // Both of the service's pools: postgres.js's, and Bun's native client's ("-native", src/platform/native-postgres.ts).
    const rows = await sql<{ pid: number }[]>`select pid from pg_stat_activity
      where application_name in (${applicationName}, ${applicationName + '-native'}) and backend_type = 'client backend'`
    return rows.map((r) => r.pid)
  } finally {
    await sql.end()
  }
}

/** CPU seconds used by the given processes between start() and the returned function's call. */
export function cpuMeter(pids: number[]): () => number {
  const before = pids.map(cpuSeconds)
  return () => pids.reduce((sum, pid, i) => sum + Math.max(0, cpuSeconds(pid) - before[i]), 0)
}

export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
