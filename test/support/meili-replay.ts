/**
 * A local stand-in for a Meilisearch server, answering with Meilisearch's own response shapes so
 * the real `meilisearch` client runs unchanged: tasks complete at once, documents and settings are
 * kept, and searches answer with hits the test sets, or (`hits: 'match'`) with the documents that
 * hold every word of the query in a searchable attribute, as Meilisearch matches without typos or
 * stemming. Every request is recorded for assertions.
 */
export type ReplayHit = { id: string; relevance?: number; indexed_day: number; _rankingScore: number }

type SearchBody = { q?: string; filter?: string[]; limit?: number }

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)

/**
 * Whether a document matches a query in Meilisearch's syntax: every word, every "phrase" (its words
 * in a row), none of the -excluded ones, in the searchable attributes (all of them if unset). A word,
 * or up to 3 words in a row, that the `synonyms` setting lists also matches any of its synonyms, as
 * in Meilisearch; phrases and exclusions are matched as written.
 */
function matches(
  doc: Record<string, unknown>,
  q: string,
  searchable: string[] | null,
  synonyms: Record<string, string[]>,
): boolean {
  const text = (searchable ?? Object.keys(doc)).map((a) => String(doc[a] ?? '')).join(' \u0000 ')
  const held = words(text).join(' ')
  const holds = (phrase: string) => ` ${held} `.includes(` ${words(phrase).join(' ')} `)
  const items = [...q.matchAll(/(-?)(?:"([^"]*)"|(\S+))/g)].map(([, minus, phrase, word]) => ({
    minus: minus === '-',
    phrase,
    word,
  }))
  for (let i = 0; i < items.length; i++) {
    const { minus, phrase, word } = items[i]
    if (words(phrase ?? word).length === 0) continue
    if (phrase === undefined && !minus) {
      // The longest run of plain words (at most 3) that the synonyms list.
      let run = 0
      for (let n = 3; n >= 1 && run === 0; n--) {
        const slice = items.slice(i, i + n)
        if (
          slice.length === n &&
          slice.every((x) => x.phrase === undefined && !x.minus) &&
          synonyms[words(slice.map((x) => x.word).join(' ')).join(' ')]
        )
          run = n
      }
      if (run > 0) {
        const typed = items
          .slice(i, i + run)
          .map((x) => x.word)
          .join(' ')
        if (![typed, ...synonyms[words(typed).join(' ')]].some(holds)) return false
        i += run - 1
        continue
      }
    }
    if (holds(phrase ?? word) === minus) return false
  }
  return true
}

/** The filters the backend sends (src/search/meilisearch/filters.ts), enough of them for tests. */
function passes(doc: Record<string, unknown>, filter: string[] = []): boolean {
  return filter.every((f) => {
    const m = /^(\w+) (>=|<=|=) (.+)$/.exec(f)
    if (!m) return true
    const value = doc[m[1]]
    if (m[2] === '=') return String(value) === m[3]
    if (typeof value !== 'number') return false
    return m[2] === '>=' ? value >= Number(m[3]) : value <= Number(m[3])
  })
}

export type MeiliReplay = {
  url: string
  documents: Map<string, Record<string, unknown>>
  requests: { method: string; path: string; body: unknown }[]
  /** The hits every search answers with, best first (the test plays Meilisearch's ranking), or 'match'. */
  hits: ReplayHit[] | 'match'
  /** The settings last sent. */
  settings: Record<string, unknown>
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
    url: '',
    documents: new Map(),
    requests: [],
    hits: [],
    settings: {},
    failTasks: null,
    failSearches: null,
    gate: null,
    stop: () => server.stop(true),
  }
  const enqueue = (indexUid: string | null, type: string) => {
    const uid = ++taskUid
    const now = new Date().toISOString()
    const failed = replay.failTasks
    tasks.set(uid, {
      uid,
      indexUid,
      type,
      status: failed ? 'failed' : 'succeeded',
      canceledBy: null,
      details: {},
      error: failed ? { message: failed, code: 'invalid_document_fields', type: 'invalid_request', link: '' } : null,
      duration: 'PT0S',
      enqueuedAt: now,
      startedAt: now,
      finishedAt: now,
    })
    return Response.json({ taskUid: uid, indexUid, status: 'enqueued', type, enqueuedAt: now }, { status: 202 })
  }
  const server = Bun.serve({
    port: 0,
    async fetch(request) {
      const { pathname } = new URL(request.url)
      const body =
        request.method === 'GET' || request.method === 'DELETE' ? null : await request.json().catch(() => null)
      replay.requests.push({ method: request.method, path: pathname, body })
      await replay.gate?.(pathname)
      let m: RegExpExecArray | null
      if (pathname === '/health') return Response.json({ status: 'available' })
      if ((m = /^\/tasks\/(\d+)$/.exec(pathname))) return Response.json(tasks.get(Number(m[1])))
      if (pathname === '/indexes' && request.method === 'POST')
        return enqueue((body as { uid: string }).uid, 'indexCreation')
      if ((m = /^\/indexes\/([^/]+)\/settings$/.exec(pathname))) {
        if (request.method === 'GET') return Response.json(replay.settings)
        replay.settings = { ...replay.settings, ...(body as object) }
        return enqueue(m[1], 'settingsUpdate')
      }
      if ((m = /^\/indexes\/([^/]+)$/.exec(pathname)) && request.method === 'DELETE')
        return enqueue(m[1], 'indexDeletion')
      if (/^\/indexes\/[^/]+\/stats$/.test(pathname)) {
        return Response.json({
          numberOfDocuments: replay.documents.size,
          rawDocumentDbSize: 0,
          avgDocumentSize: 0,
          isIndexing: false,
          numberOfEmbeddings: 0,
          numberOfEmbeddedDocuments: 0,
          fieldDistribution: {},
        })
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
        return Response.json(
          { message: failed.message, code: failed.code, type: 'invalid_request', link: '' },
          { status: failed.status },
        )
      }
      const answer = (searches: SearchBody[], limit: number) => {
        if (replay.hits !== 'match') return replay.hits.slice(0, limit)
        const searchable = (replay.settings.searchableAttributes as string[] | undefined) ?? null
        // Keyed by their words, as the query is read (once per search: the setting lists some 1,400 names).
        const setting = (replay.settings.synonyms as Record<string, string[]> | undefined) ?? {}
        const synonyms = Object.fromEntries(Object.entries(setting).map(([k, v]) => [words(k).join(' '), v]))
        const found = [...replay.documents.values()].filter((doc) =>
          searches.some((b) => passes(doc, b.filter) && matches(doc, b.q ?? '', searchable, synonyms)),
        )
        return found
          .slice(0, limit)
          .map((doc) => ({ id: doc.id, relevance: doc.relevance, indexed_day: doc.indexed_day, _rankingScore: 0.9 }))
      }
      if (/^\/indexes\/[^/]+\/search$/.test(pathname)) {
        const search = body as SearchBody
        const hits = answer([search], search.limit ?? 20)
        return Response.json({
          hits,
          query: search.q,
          processingTimeMs: 1,
          limit: search.limit ?? 20,
          offset: 0,
          estimatedTotalHits: hits.length,
        })
      }
      if (pathname === '/multi-search') {
        const multi = body as { federation: { limit: number }; queries: SearchBody[] }
        const hits = answer(multi.queries, multi.federation.limit)
        return Response.json({
          hits,
          processingTimeMs: 1,
          limit: multi.federation.limit,
          offset: 0,
          estimatedTotalHits: hits.length,
        })
      }
      return Response.json(
        { message: `no route ${request.method} ${pathname}`, code: 'not_found', type: 'invalid_request', link: '' },
        { status: 404 },
      )
    },
  })
  replay.url = `http://127.0.0.1:${server.port}`
  return replay
}
