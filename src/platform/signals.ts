/**
 * SIGTERM and SIGINT, behind a seam: node:process's `on` on Bun (and Node), Deno's own listener
 * API on Deno, which takes the signal away from its default (exiting at once).
 */
import process from 'node:process'

export type StopSignal = 'SIGTERM' | 'SIGINT'

declare const Deno: { addSignalListener: (signal: StopSignal, handler: () => void) => void } | undefined

export function onStopSignal(handler: (signal: StopSignal) => void): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    if (typeof Deno !== 'undefined' && !(globalThis as { Bun?: unknown }).Bun)
      Deno.addSignalListener(signal, () => handler(signal))
    else process.on(signal, () => handler(signal))
  }
}

/** Ends the process with `code` once what it wrote to stdout and stderr has gone out. */
export function exitProcess(code: number): never {
  process.exit(code)
}
