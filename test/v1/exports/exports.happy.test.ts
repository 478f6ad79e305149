import { describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { EXPORT_RESOURCES } from '../../../src/pipeline/exports/resources'
import { runExport } from '../../../src/pipeline/exports/run-export'
import { responseValidator } from '../../support/contract'
import { req } from '../../support/app'
import { serve } from '../../../src/platform/serve'
import { testDriver } from '../../support/database'
import { bearer, insertClaim, insertPapers, paperRow } from '../../support/fixtures'
import {
  download,
  filesIn,
  get,
  linesOf,
  listExports,
  pathOf,
  runExportCli,
  useExportsApi,
  type Listed,
} from './support'
import { gunzipSync } from 'node:zlib'
import { parse } from 'csv-parse/sync'
import { CSV_COLUMNS } from '../../../src/csv/columns'

/** The data files a listing names: each NDJSON file and its CSV. */
const allFiles = (listed: Listed[]) => listed.flatMap((f) => [f.file, f.csv!.file])
const csvName = (f: Listed) => f.file.replace(/\.ndjson\.gz$/, '.csv.gz')

const api = useExportsApi()
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** Every item a list endpoint serves, by its id. */
async function served(path: string, idOf: (item: any) => string) {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  const response = await get(api, path)
  expect(response.status).toBe(200)
  const body = await response.json()
  expect(body.pagination.has_more).toBe(false)
  return new Map(body.data.map((item: unknown) => [idOf(item), item]))
}

describe('cli export and GET /api/v1/exports', () => {
  let files: Listed[]

  test('cli export writes one file per resource and says what it wrote', async () => {
    const result = await runExportCli(api)
    expect(result.code).toBe(0)
    expect(result.stdout[0]).toMatch(
      new RegExp(
        `^export written to ${api.dir}: 4 papers, 2 stories, 2 entities, 3 claims \\(\\d+ bytes\\) in [\\d.]+ s$`,
      ),
    )
    expect(result.stderr.map((l) => l.split(':')[0])).toEqual([...EXPORT_RESOURCES])
    files = await listExports(api)
    expect(files.map((f) => [f.resource, f.count])).toEqual([
      ['papers', 4],
      ['stories', 2],
      ['entities', 2],
      ['claims', 3],
    ])
    const generatedAt = files[0].generated_at
    expect(Date.now() - Date.parse(generatedAt)).toBeLessThan(60_000)
    for (const f of files) {
      expect(f).toEqual({
        resource: f.resource,
        file: expect.stringMatching(new RegExp(`^${f.resource}-\\d{8}T\\d{9}Z-[0-9a-f]{8}\\.ndjson\\.gz$`)),
        content_type: 'application/x-ndjson',
        content_encoding: 'gzip',
        count: f.count,
        bytes: expect.any(Number),
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        generated_at: generatedAt,
        url: `https://geroscope.test/api/v1/exports/${f.file}`,
        csv: {
          file: csvName(f),
          content_type: 'text/csv',
          content_encoding: 'gzip',
          bytes: expect.any(Number),
          sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          url: `https://geroscope.test/api/v1/exports/${csvName(f)}`,
        },
      })
    }
    expect(filesIn(api.dir)).toEqual(['manifest.json', ...allFiles(files)].sort())
  })

  test('the list matches its schema in the OpenAPI document', async () => {
    const check = responseValidator(await (await api.app.handle(req('/api/v1/openapi.json'))).json())
    expect(check('/api/v1/exports', 200, await (await get(api, '/api/v1/exports')).json())).toEqual([])
  })

  test('each file is the size and sha256 the list gives, and its line count is the count', async () => {
    for (const f of files) {
      const bytes = await download(api, f)
      expect(bytes.length).toBe(f.bytes)
      expect(sha256(bytes)).toBe(f.sha256)
      expect(linesOf(bytes).length).toBe(f.count)
    }
  })

  test('every line is exactly the item the API serves for it', async () => {
    const byResource = Object.fromEntries(
      await Promise.all(files.map(async (f) => [f.resource, linesOf(await download(api, f))])),
    )
    const papers = await served('/api/v1/papers?min_relevance=0&limit=100', (p) => p.id)
    expect(byResource.papers.map((p: { id: string }) => p.id)).toEqual(['MED-1', 'MED-2', 'MED-3', 'PPR-4']) // primary-key order
    for (const line of byResource.papers) expect(line).toEqual(papers.get(line.id))
    const stories = await served('/api/v1/stories?limit=100', (s) => s.paper_id)
    expect(byResource.stories.map((s: { paper_id: string }) => s.paper_id)).toEqual(['MED-1', 'MED-2'])
    for (const line of byResource.stories) expect(line).toEqual(stories.get(line.paper_id))
    const entities = await served('/api/v1/entities?limit=100', (e) => `${e.type}/${e.key}`)
    expect(byResource.entities.length).toBe(entities.size)
    for (const line of byResource.entities) expect(line).toEqual(entities.get(`${line.type}/${line.key}`))
    const claims = await served('/api/v1/claims?limit=100', (c) => String(c.id))
    expect(byResource.claims.length).toBe(claims.size)
    for (const line of byResource.claims) expect(line).toEqual(claims.get(String(line.id)))
    // Licensing, as the API applies it: the withheld abstracts and evidence are null.
    expect(byResource.papers.map((p: { abstract: string | null }) => p.abstract)).toEqual([
      'An open abstract under CC BY.',
      null,
      null,
      'A public-domain abstract.',
    ])
    expect(
      byResource.claims.map((c: { paper_id: string; evidence: string | null }) => [c.paper_id, c.evidence]).sort(),
    ).toEqual([
      ['MED-1', 'Open evidence sentence.'],
      ['MED-2', null],
      ['MED-3', null],
    ])
  })

  test('each CSV file is the size and sha256 listed, and holds the rows the list endpoint answers as CSV', async () => {
    const paths = {
      papers: '/api/v1/papers?min_relevance=0&limit=100',
      stories: '/api/v1/stories?limit=100',
      entities: '/api/v1/entities?limit=100',
      claims: '/api/v1/claims?limit=100',
    }
    for (const f of files) {
      const bytes = await download(api, { ...f, ...f.csv! })
      expect(bytes.length).toBe(f.csv!.bytes)
      expect(sha256(bytes)).toBe(f.csv!.sha256)
      const [header, ...rows] = parse(gunzipSync(bytes).toString('utf8')) as string[][]
      expect(header).toEqual([...CSV_COLUMNS[f.resource as keyof typeof CSV_COLUMNS]])
      expect(rows.length).toBe(f.count)
      const response = await get(api, `${paths[f.resource as keyof typeof paths]}&format=csv`)
      const [servedHeader, ...servedRows] = parse(await response.text()) as string[][]
      expect(servedHeader).toEqual(header)
      expect([...rows].sort()).toEqual([...servedRows].sort()) // the export goes in key order, the list in its own
    }
    const papersCsv = gunzipSync(await download(api, { ...files[0], ...files[0].csv! })).toString('utf8')
    const papers = parse(papersCsv, { columns: true }) as Record<string, string>[]
    expect(papers.map((p) => p.abstract)).toEqual([
      'An open abstract under CC BY.',
      '',
      '',
      'A public-domain abstract.',
    ])
  })

  test('downloads carry Content-Length, Accept-Ranges, a strong ETag and the rate-limit headers', async () => {
    const f = files[0]
    const response = await get(api, pathOf(f.url))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/gzip')
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(response.headers.get('content-length')).toBe(String(f.bytes))
    expect(response.headers.get('accept-ranges')).toBe('bytes')
    expect(response.headers.get('etag')).toBe(`"${f.sha256}"`)
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${f.file}"`)
    expect(response.headers.get('x-ratelimit-limit')).toBe('50000')
    await response.arrayBuffer()
  })

  test('If-None-Match with the ETag gives 304 without a body', async () => {
    const f = files[1]
    const response = await get(api, pathOf(f.url), api.pro, { 'if-none-match': `"${f.sha256}"` })
    expect(response.status).toBe(304)
    expect(await response.text()).toBe('')
    expect(response.headers.get('etag')).toBe(`"${f.sha256}"`)
  })

  test('a single Range gives 206 with Content-Range; the pieces make the whole file', async () => {
    const f = files[0]
    const whole = await download(api, f)
    const piece = async (range: string) => {
      const response = await get(api, pathOf(f.url), api.pro, { range })
      expect(response.status).toBe(206)
      const body = new Uint8Array(await response.arrayBuffer())
      expect(response.headers.get('content-length')).toBe(String(body.length))
      return { body, contentRange: response.headers.get('content-range') }
    }
    const first = await piece('bytes=0-99')
    expect(first.contentRange).toBe(`bytes 0-99/${f.bytes}`)
    const rest = await piece('bytes=100-')
    expect(rest.contentRange).toBe(`bytes 100-${f.bytes - 1}/${f.bytes}`)
    expect(Buffer.concat([first.body, rest.body]).equals(Buffer.from(whole))).toBe(true)
    const tail = await piece('bytes=-10')
    expect(tail.contentRange).toBe(`bytes ${f.bytes - 10}-${f.bytes - 1}/${f.bytes}`)
    expect(Buffer.from(tail.body).equals(Buffer.from(whole.subarray(f.bytes - 10)))).toBe(true)
    const beyondEnd = await piece(`bytes=5-${f.bytes + 1000}`) // a last byte past the end means the end
    expect(beyondEnd.contentRange).toBe(`bytes 5-${f.bytes - 1}/${f.bytes}`)
  })

  test('through the HTTP server too, a download and a range carry their Content-Length (not chunked)', async () => {
    const f = files[0]
    const whole = await download(api, f)
    const server = serve(api.app.fetch, 0)
    try {
      const at = async (headers: Record<string, string>) => {
        const response = await fetch(`http://127.0.0.1:${server.port}${pathOf(f.url)}`, {
          headers: { ...bearer(api.pro).headers, ...headers },
        })
        return { response, body: new Uint8Array(await response.arrayBuffer()) }
      }
      const all = await at({})
      expect(all.response.status).toBe(200)
      expect(all.response.headers.get('content-length')).toBe(String(f.bytes))
      expect(all.response.headers.get('transfer-encoding')).toBeNull()
      expect(Buffer.from(all.body).equals(Buffer.from(whole))).toBe(true)
      const part = await at({ range: 'bytes=3-12' })
      expect(part.response.status).toBe(206)
      expect(part.response.headers.get('content-length')).toBe('10')
      expect(part.response.headers.get('content-range')).toBe(`bytes 3-12/${f.bytes}`)
      expect(Buffer.from(part.body).equals(Buffer.from(whole.subarray(3, 13)))).toBe(true)
    } finally {
      await server.stop(true)
    }
  })

  test('If-Range with the ETag resumes; with another validator the whole file comes', async () => {
    const f = files[0]
    const same = await get(api, pathOf(f.url), api.pro, { range: 'bytes=10-19', 'if-range': `"${f.sha256}"` })
    expect(same.status).toBe(206)
    expect((await same.arrayBuffer()).byteLength).toBe(10)
    const other = await get(api, pathOf(f.url), api.pro, { range: 'bytes=10-19', 'if-range': '"another-file"' })
    expect(other.status).toBe(200)
    expect((await other.arrayBuffer()).byteLength).toBe(f.bytes)
  })

  test('browsers may resume: Range and If-Range pass a preflight, Content-Range is exposed', async () => {
    const preflight = await api.app.handle(
      req(pathOf(files[0].url), {
        method: 'OPTIONS',
        headers: {
          origin: 'https://lab.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization, range, if-range',
        },
      }),
    )
    const allowed = preflight.headers.get('access-control-allow-headers')!.toLowerCase()
    for (const name of ['authorization', 'range', 'if-range']) expect(allowed).toContain(name)
    const response = await get(api, pathOf(files[0].url), api.pro, {
      origin: 'https://lab.example',
      range: 'bytes=0-0',
    })
    await response.arrayBuffer()
    expect(response.headers.get('access-control-expose-headers')!.toLowerCase()).toContain('content-range')
  })

  test('each download request counts as one request, a ranged one too', async () => {
    const f = files[0]
    const used = async (headers: Record<string, string>) => {
      const response = await get(api, pathOf(f.url), api.pro, headers)
      await response.arrayBuffer()
      return Number(response.headers.get('x-ratelimit-used'))
    }
    const a = await used({})
    const b = await used({ range: 'bytes=0-0' })
    expect(b).toBe(a + 1)
  })

  test('a new run replaces the list; the files of the run before stay downloadable, older ones go', async () => {
    const first = files
    expect((await runExportCli(api)).code).toBe(0)
    const second = await listExports(api)
    expect(second.map((f) => f.file)).not.toEqual(first.map((f) => f.file))
    expect(second.map((f) => f.sha256)).toEqual(first.map((f) => f.sha256).map(() => expect.any(String)))
    for (const f of first) expect((await get(api, pathOf(f.url))).status).toBe(200)
    expect((await runExportCli(api)).code).toBe(0)
    const third = await listExports(api)
    for (const f of first) {
      const response = await get(api, pathOf(f.url))
      expect(response.status).toBe(404)
      expect((await response.json()).error.code).toBe('not_found')
    }
    for (const f of second) expect((await get(api, pathOf(f.url))).status).toBe(200)
    for (const f of first) expect((await get(api, pathOf(f.csv!.url))).status).toBe(404)
    for (const f of second) expect((await get(api, pathOf(f.csv!.url))).status).toBe(200)
    const expected = ['manifest-previous.json', 'manifest.json', ...allFiles([...second, ...third])]
    expect(filesIn(api.dir)).toEqual(expected.sort())
    files = third
  })
})

describe.skipIf(testDriver !== 'postgres')('one snapshot per run (PostgreSQL: writes go on beside the run)', () => {
  test('rows written while a run reads are in none of its files, and the counts match the files', async () => {
    let wrote = false
    const counts = await runExport(
      api.database,
      { exportDir: api.dir, publicBaseUrl: 'https://geroscope.test' },
      {
        batchSize: 1,
        onFile: async (f) => {
          if (f.resource !== 'papers' || wrote) return
          wrote = true
          // After the papers file is complete, a paper and its claim are committed; the claims file is read after.
          await insertPapers(api.database.db, [paperRow({ id: 'MED-99' })])
          await insertClaim(api.database.db, { paperId: 'MED-99' })
        },
      },
    )
    expect(wrote).toBe(true)
    expect(
      (await api.database.rows<{ n: number }>(sql`select count(*)::int as n from claims where paper_id = 'MED-99'`))[0]
        .n,
    ).toBe(1)
    expect(counts).toMatchObject({ papers: 4, claims: 3 })
    const listed = await listExports(api)
    const claims = linesOf(await download(api, listed.find((f) => f.resource === 'claims')!))
    expect(claims.map((c: { paper_id: string }) => c.paper_id)).not.toContain('MED-99')
    expect(claims.length).toBe(listed.find((f) => f.resource === 'claims')!.count)
  })
})
