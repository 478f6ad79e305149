/** Serves a fetch handler on Bun or Deno; the app itself only speaks web-standard Request/Response. */
type FetchHandler = (request: Request) => Response | Promise<Response>
export type RunningServer = { port: number; stop: () => Promise<void> }

declare const Deno: { serve: (options: { port: number; onListen?: () => void }, handler: FetchHandler) => { shutdown: () => Promise<void> } } | undefined

export function serve(fetch: FetchHandler, port: number): RunningServer {
  const bun = (globalThis as { Bun?: typeof Bun }).Bun
  if (bun) {
    const server = bun.serve({ port, fetch })
    return { port: server.port ?? port, stop: async () => { await server.stop() } }
  }
  if (typeof Deno !== 'undefined') {
    const server = Deno.serve({ port, onListen: () => {} }, fetch)
    return { port, stop: () => server.shutdown() }
  }
  throw new Error('no supported runtime: run with bun (or deno)')
}
