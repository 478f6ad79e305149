/**
 * GET /api/v1/exports and /api/v1/exports/{file}: the nightly bulk export (src/pipeline/exports) for
 * download. The list is open to every key (it says what a pro key can fetch); the files are for
 * pro keys. Each request counts as one against the allowance, a ranged one too, so a whole file is
 * one request and a download resumed in N pieces is N; files are sent from disk as they are read,
 * never held in memory.
 */
import { join } from 'node:path'
import { Elysia, t } from 'elysia'
import { ApiError, invalidParameter, notFound, quoted } from '../../../http/errors'
import { matchesEtag } from '../../../http/compression'
import { MANIFEST, PREVIOUS_MANIFEST, readManifest, type Manifest } from '../../../pipeline/exports/manifest'
import { fileBody, parseRange, sizeOf } from '../../../pipeline/exports/serve-file'
import type { KeyAuthenticator } from '../auth'
import { documented, errorResponses } from '../model'
import { openApiParameters, parseParams, pathParam } from '../params'
import { ExportFile } from './model'

export type ExportsSettings = { exportDir: string; baseUrl: string; keys: KeyAuthenticator }

const fileUrl = (base: string, file: string) => `${base}/api/v1/exports/${encodeURIComponent(file)}`

function listed(manifest: Manifest, base: string) {
  return manifest.files.map((f) => ({
    resource: f.resource,
    file: f.file,
    content_type: 'application/x-ndjson' as const,
    content_encoding: 'gzip' as const,
    count: f.count,
    bytes: f.bytes,
    sha256: f.sha256,
    generated_at: manifest.generated_at,
    url: fileUrl(base, f.file),
    csv: f.csv
      ? {
          file: f.csv.file,
          content_type: 'text/csv' as const,
          content_encoding: 'gzip' as const,
          bytes: f.csv.bytes,
          sha256: f.csv.sha256,
          url: fileUrl(base, f.csv.file),
        }
      : null,
  }))
}

type DataFile = { file: string; bytes: number; sha256: string }

/** A file (NDJSON or CSV) of the latest export, or of the one before (kept so downloads in progress can finish). */
async function findFile(dir: string, name: string): Promise<DataFile | null> {
  for (const manifestName of [MANIFEST, PREVIOUS_MANIFEST]) {
    for (const entry of (await readManifest(dir, manifestName))?.files ?? []) {
      const found = [entry, entry.csv].find((f): f is DataFile => f?.file === name)
      if (found) return found
    }
  }
  return null
}

export const exportsModule = ({ exportDir, baseUrl, keys }: ExportsSettings) =>
  new Elysia({ name: 'v1-exports' })
    .get(
      '/api/v1/exports',
      async ({ request }) => {
        parseParams(request.url, {})
        const manifest = await readManifest(exportDir)
        return { data: manifest ? listed(manifest, baseUrl) : [] }
      },
      {
        response: { 200: documented(t.Object({ data: t.Array(ExportFile) })), ...errorResponses },
        detail: {
          summary: 'List the bulk export files',
          description:
            'The files of the latest complete bulk export, one per resource: papers (every paper, judged or not, as ' +
            'a /papers item), stories (as /stories items), entities (those some paper involves, as /entities items) ' +
            'and claims (as /claims items). Each file is gzip-compressed NDJSON: one JSON object per line, exactly ' +
            'as the API serves that item, licensing included (an abstract, an entity mention or description and a ' +
            "claim's evidence are given only under an open licence, else null). All files of an export read the " +
            'database at one moment, generated_at; a new export is made every night (02:30 UTC). The list is empty ' +
            'until the first export completes. Any key may list; downloading needs a pro key. ' +
            'Beside each, csv names the same items as gzip-compressed CSV (a header line, then one row per item, in ' +
            'the columns that the list endpoint answers with format=csv; null for an export made before CSV files ' +
            'were written); it downloads the same way.',
          parameters: openApiParameters({}),
        },
      },
    )
    .get(
      '/api/v1/exports/:file',
      async ({ request, params: { file: rawFile } }) => {
        parseParams(request.url, {})
        const file = pathParam(rawFile, 'file')
        if (file.length > 200)
          throw invalidParameter(`file in the path must be at most 200 characters (got ${file.length})`)
        // The gate checked this key moments ago: this is a cache hit, not a database read.
        const holder = await keys.authenticate(request.headers.get('authorization'))
        if (holder.tier !== 'pro')
          throw new ApiError(
            'plan_required',
            'bulk export files are served to pro keys only (this is a member key); pro keys are assigned by the ' +
              'operator',
          )
        const entry = await findFile(exportDir, file)
        if (!entry) throw notFound(`no export file named ${quoted(file)}; GET /api/v1/exports lists them`)
        // The name comes from our own manifest, never from the request, so no path can be made up.
        const size = await sizeOf(join(exportDir, entry.file))
        if (size === null)
          throw notFound(`export file ${quoted(file)} is no longer kept; GET /api/v1/exports lists the current ones`)
        const etag = `"${entry.sha256}"`
        const headers: Record<string, string> = {
          'accept-ranges': 'bytes',
          etag,
          'content-type': 'application/gzip',
          'content-disposition': `attachment; filename="${entry.file}"`,
        }
        if (matchesEtag(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers })
        // If-Range: resume only while the file is the one the client has part of; otherwise all of it.
        const ifRange = request.headers.get('if-range')
        const range =
          ifRange !== null && ifRange.trim() !== etag ? null : parseRange(request.headers.get('range'), size)
        if (range === 'unsatisfiable') {
          throw new ApiError(
            'invalid_parameter',
            `Range ${quoted(request.headers.get('range') ?? '')} is outside the file (${size} bytes)`,
            { 'content-range': `bytes */${size}` },
            416,
          )
        }
        const path = join(exportDir, entry.file)
        if (range === null)
          return new Response(fileBody(path, 0, size - 1), {
            status: 200,
            headers: { ...headers, 'content-length': String(size) },
          })
        return new Response(fileBody(path, range.start, range.end), {
          status: 206,
          headers: {
            ...headers,
            'content-length': String(range.end - range.start + 1),
            'content-range': `bytes ${range.start}-${range.end}/${size}`,
          },
        })
      },
      {
        detail: {
          summary: 'Download a bulk export file',
          description:
            'One file of GET /api/v1/exports (an NDJSON file or its CSV), for pro keys ' +
            '(a member key gets 403 plan_required): gzip-compressed NDJSON or CSV, sent as application/gzip (no ' +
            'Content-Encoding: the bytes are the file whose size and sha256 the list gives). Ranges: Accept-Ranges: ' +
            'bytes; one range (Range: bytes=first-last, first- or -suffix) gives 206 with Content-Range; a range ' +
            'beyond the end gives 416 (invalid_parameter, Content-Range: bytes */size); several ranges, or a Range ' +
            'header that is not bytes=, give the whole file. If-Range with the ETag resumes only the same file. The ' +
            'strong ETag is the sha256 in quotes; If-None-Match with it gives 304. Each request counts as one ' +
            'against the allowance, a ranged one too. The files of the export before the latest stay downloadable ' +
            'until the next export, so a download in progress can finish.',
          parameters: [
            {
              name: 'file',
              in: 'path',
              required: true,
              schema: { type: 'string' },
              description: 'A file name from GET /api/v1/exports',
            },
            {
              name: 'Range',
              in: 'header',
              required: false,
              schema: { type: 'string' },
              description: 'bytes=first-last, bytes=first- or bytes=-suffix',
            },
            {
              name: 'If-Range',
              in: 'header',
              required: false,
              schema: { type: 'string' },
              description: 'The ETag of the part already fetched',
            },
            { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
          ],
          // Its 200, 206, 304 and 416 answers are written into the document by src/modules/v1/openapi (bytes, not
          // JSON).
        },
        response: errorResponses,
      },
    )
