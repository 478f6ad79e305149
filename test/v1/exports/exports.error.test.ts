import { describe, expect, test } from 'bun:test'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pino from 'pino'
import { serverFailure } from '../../../src/http/error-plugin'
import { withJobLock } from '../../../src/jobs/job-lock'
import { serve } from '../../../src/platform/serve'
import { bearer } from '../../support/fixtures'
import { cliWithEnv } from '../../support/cli'
import { get, listExports, pathOf, runExportCli, useExportsApi, type Listed } from './support'

const api = useExportsApi()

const envelope = async (response: Response) => ({ status: response.status, body: await response.json() })

describe('before the first export', () => {
  test('the list is empty and no file is found', async () => {
    expect(await listExports(api)).toEqual([])
    expect(await envelope(await get(api, '/api/v1/exports/papers-20261124T020000000Z-00000000.ndjson.gz'))).toEqual({
      status: 404,
      body: {
        error: {
          status: 404,
          code: 'not_found',
          message:
            'no export file named "papers-20261124T020000000Z-00000000.ndjson.gz"; GET /api/v1/exports lists them',
        },
      },
    })
  })
})

describe('GET /api/v1/exports/{file} errors', () => {
  let files: Listed[]
  test('(an export to fetch from)', async () => {
    expect((await runExportCli(api)).code).toBe(0)
    files = await listExports(api)
    expect(files.length).toBe(4)
  })

  test('a member key may list but not download: 403 plan_required', async () => {
    expect((await get(api, '/api/v1/exports', api.member)).status).toBe(200)
    for (const headers of [{}, { range: 'bytes=0-9' }] as Record<string, string>[]) {
      const response = await get(api, pathOf(files[0].url), api.member, headers)
      expect(await envelope(response)).toEqual({
        status: 403,
        body: {
          error: {
            status: 403,
            code: 'plan_required',
            message:
              'bulk export files are served to pro keys only (this is a member key); pro keys are assigned by the operator',
          },
        },
      })
      expect(response.headers.get('x-ratelimit-limit')).toBe('1000') // the refusal counted, as any answer does
    }
  })

  test('no key: 401 missing_key, for the list and the files', async () => {
    for (const path of ['/api/v1/exports', pathOf(files[0].url)]) {
      const response = await api.app.handle(new Request(`http://localhost${path}`))
      expect((await envelope(response)).body.error.code).toBe('missing_key')
    }
  })

  test('a range that starts beyond the end: 416 in the envelope, with Content-Range: bytes */size', async () => {
    const f = files[0]
    for (const range of [
      `bytes=${f.bytes}-`,
      `bytes=${f.bytes + 10}-${f.bytes + 20}`,
      'bytes=-0',
      'bytes=9999999999999999-',
    ]) {
      const response = await get(api, pathOf(f.url), api.pro, { range })
      expect(response.headers.get('content-range')).toBe(`bytes */${f.bytes}`)
      expect(await envelope(response)).toEqual({
        status: 416,
        body: {
          error: {
            status: 416,
            code: 'invalid_parameter',
            message: `Range ${JSON.stringify(range)} is outside the file (${f.bytes} bytes)`,
          },
        },
      })
    }
  })

  test('a Range this server does not serve as asked (other unit, malformed, several ranges) gives the whole file', async () => {
    const f = files[0]
    for (const range of ['items=0-9', 'bytes=9-2', 'bytes=abc', 'bytes=0-1,5-6', 'bytes=-']) {
      const response = await get(api, pathOf(f.url), api.pro, { range })
      expect({ range, status: response.status }).toEqual({ range, status: 200 })
      expect((await response.arrayBuffer()).byteLength).toBe(f.bytes)
    }
  })

  test('unknown query parameters: 400 naming them', async () => {
    for (const path of ['/api/v1/exports?limit=5', `${pathOf(files[0].url)}?download=1`]) {
      const { status, body } = await envelope(await get(api, path))
      expect(status).toBe(400)
      expect(body.error.code).toBe('invalid_parameter')
      expect(body.error.message).toContain(path.includes('limit') ? 'limit' : 'download')
    }
  })

  test("a file removed after the route answered, before its first byte is read: 500 in the envelope with a request id, not the runtime's page", async () => {
    const f = files[3]
    const path = join(api.dir, f.file)
    const bytes = readFileSync(path)
    const logged: { level: number; requestId: string; err: { code: string } }[] = []
    // The nightly run removing the run before the previous one at that very moment, made certain.
    const server = serve(
      async (request) => {
        const response = await api.app.fetch(request)
        rmSync(path)
        return response
      },
      0,
      {
        onError: (error) =>
          serverFailure(error, pino({ base: undefined }, { write: (line: string) => logged.push(JSON.parse(line)) })),
      },
    )
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}${pathOf(f.url)}`, bearer(api.pro))
      expect(response.status).toBe(500)
      expect(response.headers.get('content-type')).toBe('application/json')
      const requestId = response.headers.get('x-request-id')
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/)
      expect(await response.json()).toEqual({
        error: {
          status: 500,
          code: 'internal_error',
          message: `internal error; quote request id ${requestId} when reporting it`,
        },
      })
      expect(logged.map((l) => ({ level: l.level, requestId: l.requestId, code: l.err.code }))).toEqual([
        { level: 50, requestId: requestId!, code: 'ENOENT' },
      ])
    } finally {
      await server.stop(true)
      writeFileSync(path, bytes)
    }
  })
})

describe('cli export failures leave the served export as it was', () => {
  test('a second run while one goes on ends with the lock message and exit status 1', async () => {
    const before = await listExports(api)
    const result = await withJobLock(api.database, 'export', () => runExportCli(api))
    expect(result.code).toBe(1)
    expect(result.stderr.join('\n')).toContain('job export is already running')
    expect(await listExports(api)).toEqual(before)
  })

  test('an EXPORT_DIR that cannot be a directory: exit status 1 naming it, nothing served changes', async () => {
    const before = await listExports(api)
    const notADirectory = join(api.dir, 'manifest.json', 'inside')
    const result = await cliWithEnv(api.database, { ...api.env, EXPORT_DIR: notADirectory }, 'export')
    expect(result.code).toBe(1)
    expect(result.stderr.join('\n')).toContain(notADirectory)
    expect(await listExports(api)).toEqual(before)
  })

  test('a run that fails while writing deletes its temporary files and serves the export before', async () => {
    const before = await listExports(api)
    // A directory where the manifest's temporary file goes: every data file is written, the manifest cannot be.
    const { mkdirSync, readdirSync, rmSync } = await import('node:fs')
    mkdirSync(join(api.dir, '.tmp-manifest.json'))
    writeFileSync(join(api.dir, '.tmp-manifest.json', 'x'), '')
    try {
      const result = await runExportCli(api)
      expect(result.code).toBe(1)
      expect(await listExports(api)).toEqual(before)
      for (const f of before) expect((await get(api, pathOf(f.url))).status).toBe(200)
      expect(readdirSync(api.dir).filter((n) => n.startsWith('.tmp-') && n !== '.tmp-manifest.json')).toEqual([])
    } finally {
      rmSync(join(api.dir, '.tmp-manifest.json'), { recursive: true, force: true })
    }
    expect((await runExportCli(api)).code).toBe(0)
    expect(await listExports(api)).not.toEqual(before)
  })
})
