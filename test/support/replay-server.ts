/** A local HTTP server for tests: the real client code talks to it instead of the internet. */
export type ReplayServer = { url: string; requests: URL[]; stop: () => Promise<void> }

export function replayServer(handler: (request: Request, url: URL) => Response | Promise<Response>): ReplayServer {
  const requests: URL[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) => {
      const url = new URL(request.url)
      requests.push(url)
      return handler(request, url)
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    stop: async () => {
      await server.stop(true)
    },
  }
}
