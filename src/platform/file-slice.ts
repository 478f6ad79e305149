/**
 * Bytes `start` to `end` (inclusive) of a file as a lazily read Blob on Bun, null elsewhere. Bun's
 * HTTP server sends a file Blob with its Content-Length (and with sendfile() from 1 MB on), where a
 * ReadableStream body is always sent chunked and loses the Content-Length its headers give: a
 * download's client would not know its size. Nothing is opened until the server sends the body.
 */
const bun = (globalThis as { Bun?: typeof Bun }).Bun

export function fileSlice(path: string, start: number, end: number): Blob | null {
  return bun ? bun.file(path).slice(start, end + 1) : null
}
