/**
 * The body to give a Response for bytes already in memory, behind a seam, because of how Bun's HTTP
 * server writes an answer that is ready only after an await (a database round trip, almost every
 * Data API answer). Bun 1.4.5 gathers such an answer in its socket's 16 KiB cork buffer and sends it
 * with one send(); an answer larger than that buffer is written uncorked, one send() for every
 * fragment of the head (`X-RateLimit-Limit`, `: `, `50000`, `\r\n`, ...): 76 system calls and TCP
 * segments for a Data API list page, 0.37 ms of CPU instead of 0.03 for a 36 kB answer (measured,
 * docs/benchmarks.md; the fix upstream, oven-sh/bun#41341, is not released). A ReadableStream body
 * takes another path, which sends the head and the first chunk in one sendmsg(): so on Bun, bodies
 * too large for the cork buffer go as a one-chunk stream. The cost is chunked transfer coding
 * instead of Content-Length on those answers; the bytes of the body are the same. Other runtimes
 * (Deno) get the bytes as they are.
 */

const bun = (globalThis as { Bun?: typeof Bun }).Bun

/** Bun's cork buffer is 16 KiB for head and body together; the Data API's head is about 1 KiB. */
export const LARGEST_CORKED_BODY = 12 * 1024

/** One chunk, never copied: the cached answers hand the same bytes to every hit. */
function oneChunk(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes)
      controller.close()
    },
  })
}

export const responseBody: (bytes: Uint8Array) => BodyInit = bun
  ? (bytes) => (bytes.byteLength > LARGEST_CORKED_BODY ? oneChunk(bytes) : (bytes as BodyInit))
  : (bytes) => bytes as BodyInit
