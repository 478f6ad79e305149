/**
 * PGlite keeps its files in one process: a second process opening the same data dir would corrupt
 * it. A pid file in the data dir makes the second opener stop with a clear message instead.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Takes the lock or throws; returns the function that releases it. */
export function lockEmbeddedDatabase(dir: string): () => void {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'geroscope.pid')
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8').trim())
    if (pid && pid !== process.pid && alive(pid)) {
      throw new Error(
        `the embedded database in ${dir} is in use by process ${pid}; stop it first, or set DATABASE_URL to share a ` +
          `PostgreSQL database`,
      )
    }
  }
  writeFileSync(file, String(process.pid))
  let released = false
  return () => {
    if (released) return
    released = true
    if (existsSync(file) && readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file)
  }
}
