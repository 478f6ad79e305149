/**
 * One export file, streamed: NDJSON chunks → gzip (node:zlib) → sha256 and byte count on the fly
 * (node:crypto) → a temporary file, flushed to disk. Memory stays at about one batch whatever the
 * corpus size; node:stream and node:zlib run on Bun, Node and Deno alike.
 */
import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { constants, createGzip } from 'node:zlib'
import { flushToDisk } from './manifest'

/** zlib level 6 (its default): level 1 saves little time here (reading the database costs more) for files a fifth larger. */
export const GZIP_LEVEL = constants.Z_DEFAULT_COMPRESSION

export async function writeGzipFile(path: string, chunks: AsyncIterable<string>): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256')
  let bytes = 0
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      bytes += chunk.length
      done(null, chunk)
    },
  })
  await pipeline(Readable.from(chunks), createGzip({ level: GZIP_LEVEL }), measure, createWriteStream(path))
  await flushToDisk(path)
  return { bytes, sha256: hash.digest('hex') }
}
