/**
 * What must never leave through the export: an abstract, an entity mention or a claim's evidence
 * under a licence that does not allow reuse (read back from every file, whole), and any file but
 * the ones a manifest lists (no path of the caller's making reaches the disk).
 */
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { createTestKey } from '../../support/fixtures'
import {
  get,
  listExports,
  pathOf,
  runExportCli,
  useExportsApi,
  WITHHELD_ABSTRACT,
  WITHHELD_EVIDENCE,
  WITHHELD_MENTION,
  type Listed,
} from './support'

const api = useExportsApi()
const SECRET = 'SECRET-CONTENT-NOT-AN-EXPORT'

describe('licensing in the files', () => {
  let files: Listed[]
  test('(an export, with a file of our own beside it in EXPORT_DIR)', async () => {
    writeFileSync(join(api.dir, 'secret.txt'), SECRET)
    expect((await runExportCli(api)).code).toBe(0)
    files = await listExports(api)
  })

  test('no withheld abstract, mention or evidence is in any file, on disk or downloaded', async () => {
    const onDisk = readdirSync(api.dir).filter((n) => n.endsWith('.ndjson.gz') || n.endsWith('.csv.gz'))
    expect(onDisk.length).toBe(8) // NDJSON and CSV
    for (const name of onDisk) {
      const text = gunzipSync(readFileSync(join(api.dir, name))).toString('utf8')
      expect(text.length).toBeGreaterThan(0)
      for (const withheld of [WITHHELD_ABSTRACT, WITHHELD_EVIDENCE, WITHHELD_MENTION])
        expect({ name, leaks: text.includes(withheld) }).toEqual({ name, leaks: false })
    }
    for (const url of files.flatMap((f) => [f.url, f.csv!.url])) {
      const text = gunzipSync(new Uint8Array(await (await get(api, pathOf(url))).arrayBuffer())).toString('utf8')
      for (const withheld of [WITHHELD_ABSTRACT, WITHHELD_EVIDENCE, WITHHELD_MENTION])
        expect(text.includes(withheld)).toBe(false)
    }
    // The rule held because the licences say so, not because the rows were left out.
    const papers = gunzipSync(readFileSync(join(api.dir, files.find((f) => f.resource === 'papers')!.file))).toString(
      'utf8',
    )
    expect(papers).toContain('"id":"MED-2"')
    expect(papers).toContain('"abstract_license":"cc by-nc"')
  })

  test('a run leaves other files in EXPORT_DIR alone', async () => {
    expect((await runExportCli(api)).code).toBe(0)
    expect(readFileSync(join(api.dir, 'secret.txt'), 'utf8')).toBe(SECRET)
  })
})

describe('only listed files are served', () => {
  test('names that are not a listed file, traversal included, are 404 and never the file they name', async () => {
    const files = await listExports(api)
    const leftover = `.tmp-${files[0].file}`
    writeFileSync(join(api.dir, leftover), SECRET) // as a crashed run would leave it
    const unlisted = files[0].file.replace(/-[0-9a-f]{8}\./, '-deadbeef.')
    writeFileSync(join(api.dir, unlisted), SECRET) // shaped like an export, in no manifest
    const names = [
      'secret.txt',
      'manifest.json',
      'manifest-previous.json',
      leftover,
      unlisted,
      `..%2F${files[0].file}`,
      `..%2F..%2F..%2F..%2Fetc%2Fpasswd`,
      '%2e%2e%2fsecret.txt',
      `.%2F${files[0].file}`,
      `${files[0].file}%00`,
      `${files[0].file}%2F..%2Fsecret.txt`,
      encodeURIComponent(join(api.dir, files[0].file)),
      files[0].file.toUpperCase(),
      `${files[0].file}.`,
      '%2E%2E',
    ]
    for (const name of names) {
      const response = await get(api, `/api/v1/exports/${name}`)
      const text = await response.text()
      expect({ name, status: response.status }).toEqual({ name, status: 404 })
      expect(text).not.toContain(SECRET)
      expect(JSON.parse(text).error.code).toBe('not_found')
    }
    // Dot segments are resolved by the URL before routing: they can reach the list or another route, never a file.
    for (const path of [
      '/api/v1/exports/../exports/secret.txt',
      `/api/v1/exports/x/../${files[0].file}/../secret.txt`,
      '/api/v1/exports//secret.txt',
      '/api/v1/exports/.',
      '/api/v1/exports/..',
    ]) {
      const response = await get(api, path)
      expect(await response.text()).not.toContain(SECRET)
      expect(response.headers.get('content-type')).not.toBe('application/gzip')
    }
  })

  test('a revoked pro key and a lapsed member key get no file', async () => {
    const [file] = await listExports(api)
    const revoked = (await createTestKey(api.database.db, { tier: 'pro', revoked: true })).key
    const lapsed = (await createTestKey(api.database.db, { tier: 'member', membership: 'lapsed' })).key
    const wrong = `${api.pro.slice(0, -4)}AAAA`
    for (const [key, code] of [
      [revoked, 'revoked_key'],
      [lapsed, 'plan_required'],
      [wrong, 'invalid_key'],
    ]) {
      const response = await get(api, pathOf(file.url), key)
      expect((await response.json()).error.code).toBe(code)
    }
  })
})
