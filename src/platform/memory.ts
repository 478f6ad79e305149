/**
 * Asking the runtime to collect garbage now, behind a seam. A garbage collector runs when a program
 * allocates; a service that has gone idle allocates nothing, so memory its caches let go of (the
 * response cache's expired answers) would stay resident until the next burst of requests. On Bun
 * this is a full, synchronous collection, which also lets its allocator hand freed pages back; it
 * takes tens of milliseconds, so call it only when idle. Elsewhere it does what the runtime allows
 * (globalThis.gc exists under --expose-gc) or nothing.
 */
const bun = (globalThis as { Bun?: typeof Bun }).Bun

export function collectGarbage(): void {
  if (bun) bun.gc(true)
  else (globalThis as { gc?: () => void }).gc?.()
}
