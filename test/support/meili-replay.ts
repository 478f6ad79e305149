/**
 * A local stand-in for a Meilisearch server, answering with Meilisearch's own response shapes so
 * the real `meilisearch` client runs unchanged: tasks complete at once, documents are kept in a map,
 * and searches answer with hits the test sets. Every request is recorded for assertions.
 */
export type ReplayHit = { id: string; relevance?: number; indexed_day: number; _rankingScore: number }

export type MeiliReplay = {
  url: string
  documents: Map<string, Record<string, unknown>>
  requests: { method: string; path: string; body: unknown }[]
  /** The hits every search answers with, best first (the test plays Meilisearch's ranking). */
  hits: ReplayHit[]
  /** Fail task processing with this message (simulates a refused document batch). */
  failTasks: string | null
  /** Awaited before each request is answered: lets a test hold Meilisearch at a chosen step. */
  gate: ((path: string) => Promise<void> | void) | null
  /** Answer searches with this Meilisearch error instead (no index, a refused key, a broken server). */
  failSearches: { status: number; code: string; message: string } | null
  stop(): void
}

export function startMeiliReplay(): MeiliReplay {
  let taskUid = 0
  const tasks = new Map<number, Record<string, unknown>>()
  const replay: MeiliReplay = {
    url: '', documents: new Map(), requests: [], hits: [], failTasks: null, failSearches: null, gate: null,
    stop: () => server.stop(true),
  }
  const enqueue = (indexUid: string | null, type: string) => {
    const uid = ++taskUid
    const now = new Date().toISOString()
    const failed = replay.failTasks
    tasks.set(uid, {
      uid, indexUid, type, status: failed ? 'failed' : 'succeeded', canceledBy: null, details: {},
      error: failed ? { message: failed, code: 'invalid_document_fields', type: 'invalid_request', link: '' } : null,
      duration: 'PT0S', enqueuedAt: now, startedAt: now, finishedAt: now,
    })
    return Response.json({ taskUid: uid, indexUid, status: 'enqueued', type, enqueuedAt: now }, { status: 202 })
  }
  const server = Bun.serve({
    port: 0,
    async fetch(request) {
      const { pathname } = new URL(request.url)
      const body = request.method === 'GET' || request.method === 'DELETE' ? null : await request.json().catch(() => null)
      replay.requests.push({ method: request.method, path: pathname, body })
      await replay.gate?.(pathname)
      let m: RegExpExecArray | null
      if ((m = /^\/tasks\/(\d+)$/.exec(pathname))) return Response.json(tasks.get(Number(m[1])))
      if (pathname === '/indexes' && request.method === 'POST') return enqueue((body as { uid: string }).uid, 'indexCreation')
      if ((m = /^\/indexes\/([^/]+)\/settings$/.exec(pathname))) return enqueue(m[1], 'settingsUpdate')
      if ((m = /^\/indexes\/([^/]+)$/.exec(pathname)) && request.method === 'DELETE') return enqueue(m[1], 'indexDeletion')
      if (/^\/indexes\/[^/]+\/stats$/.test(pathname)) {
        return Response.json({ numberOfDocuments: replay.documents.size, rawDocumentDbSize: 0, avgDocumentSize: 0, isIndexing: false, numberOfEmbeddings: 0, numberOfEmbeddedDocuments: 0, fieldDistribution: {} })
      }
      if (pathname === '/swap-indexes') return enqueue(null, 'indexSwap')
      if ((m = /^\/indexes\/([^/]+)\/documents\/delete-batch$/.exec(pathname))) {
        if (!replay.failTasks) for (const id of body as string[]) replay.documents.delete(id)
        return enqueue(m[1], 'documentDeletion')
      }
      if ((m = /^\/indexes\/([^/]+)\/documents$/.exec(pathname)) && request.method === 'POST') {
        if (!replay.failTasks) for (const doc of body as { id: string }[]) replay.documents.set(doc.id, doc)
        return enqueue(m[1], 'documentAdditionOrUpdate')
      }
      const failed = replay.failSearches
      if (failed && (/^\/indexes\/[^/]+\/search$/.test(pathname) || pathname === '/multi-search')) {
        return Response.json({ message: failed.message, code: failed.code, type: 'invalid_request', link: '' }, { status: failed.status })
      }
      if (/^\/indexes\/[^/]+\/search$/.test(pathname)) {
        return Response.json({ hits: replay.hits, query: (body as { q: string }).q, processingTimeMs: 1, limit: 1000, offset: 0, estimatedTotalHits: replay.hits.length })
      }
      if (pathname === '/multi-search') {
        return Response.json({ hits: replay.hits, processingTimeMs: 1, limit: 1000, offset: 0, estimatedTotalHits: replay.hits.length })
      }
      return Response.json({ message: `no route ${request.method} ${pathname}`, code: 'not_found', type: 'invalid_request', link: '' }, { status: 404 })
    },
  })
  replay.url = `http://127.0.0.1:${server.port}`
  return replay
}
