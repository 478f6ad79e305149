/**
 * Sending an export file: single byte ranges (RFC 9110 section 14), validators, and a body read from
 * disk as it is sent. On Bun the body is the file itself (Bun sends it with its Content-Length); elsewhere
 * a web-standard ReadableStream over node:fs/promises reads, which holds one 256 KiB chunk at a
 * time and closes the file when the client goes away.
 */
import { open, stat, type FileHandle } from 'node:fs/promises'
import { fileSlice } from '../../platform/file-slice'

const CHUNK = 256 * 1024

export type ByteRange = { start: number; end: number } // inclusive, as Content-Range writes it

/**
 * The range a `Range` header asks for in a file of `size` bytes: a range, 'unsatisfiable', or null
 * to send the whole file. As RFC 9110 allows, a header this server does not understand (another
 * unit, a malformed value) and a request for several ranges are answered with the whole file.
 */
export function parseRange(header: string | null, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === null) return null
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header)
  if (!match || (match[1] === '' && match[2] === '')) return null
  const [first, last] = [match[1], match[2]]
  if (first.length > 15 || last.length > 15) return 'unsatisfiable' // beyond any file we write
  if (first === '') {
    // the last N bytes
    const n = Number(last)
    if (n === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - n), end: size - 1 }
  }
  const start = Number(first)
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
  if (last !== '' && Number(last) < start) return null // invalid range-spec: ignored, as the RFC says
  if (start >= size) return 'unsatisfiable'
  return { start, end }
}

/** The size of the file at `path`; null when it is not there. */
export async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/**
 * The bytes `start` to `end` (inclusive) of the file at `path`, read as the client takes them. The
 * file is opened at the first read, not before: an answer never read (a HEAD, a client gone before
 * the body) holds no file open, and the file is closed at the end or when the client goes away.
 * Export files are never rewritten under the same name (each run has its own names), so the bytes
 * are the ones the headers describe.
 */
export function fileStream(path: string, start: number, end: number): ReadableStream<Uint8Array> {
  let handle: FileHandle | null = null
  let position = start
  const close = async () => {
    const h = handle
    handle = null
    await h?.close().catch(() => {})
  }
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const remaining = end + 1 - position
          if (remaining <= 0) {
            await close()
            controller.close()
            return
          }
          handle ??= await open(path, 'r')
          const buffer = new Uint8Array(Math.min(CHUNK, remaining))
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, position)
          // shorter than stated: end the body rather than hang
          if (bytesRead === 0) throw new Error(`export file ended at byte ${position}`)
          position += bytesRead
          controller.enqueue(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead))
        } catch (error) {
          await close()
          controller.error(error)
        }
      },
      cancel: close,
    },
    { highWaterMark: 0 },
  )
}

/**
 * The body for bytes `start` to `end` of an export file: on Bun the file itself (sent with its
 * Content-Length, src/platform/file-slice.ts), elsewhere the stream above.
 */
export function fileBody(path: string, start: number, end: number): BodyInit {
  return fileSlice(path, start, end) ?? fileStream(path, start, end)
}
