/**
 * A database with papers under open and withheld licences (their abstracts and claim evidence
 * marked so a leak shows), the app over it with its own EXPORT_DIR, a pro and a member key, and
 * helpers to run an export and read files back.
 */
import { afterAll, beforeAll } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { refreshEntityCounts } from '../../../src/jobs/refresh-entity-counts'
import { freshDatabase, type TestDatabase } from '../../support/database'
import {
  bearer,
  createTestKey,
  insertClaim,
  insertEntity,
  insertPapers,
  insertStory,
  linkEntity,
  paperRow,
} from '../../support/fixtures'
import { req, testApp } from '../../support/app'
import { cliWithEnv } from '../../support/cli'

export const WITHHELD_ABSTRACT = 'WITHHELD-ABSTRACT-never-leaves'
export const WITHHELD_EVIDENCE = 'WITHHELD-EVIDENCE-never-leaves'
export const WITHHELD_MENTION = 'WITHHELD-MENTION-never-leaves'

export type ExportsApi = {
  database: TestDatabase
  app: Awaited<ReturnType<typeof testApp>>
  dir: string
  pro: string
  member: string
  env: Record<string, string>
}

const unjudged = {
  relevance: null,
  relevanceConfidence: null,
  newsworthiness: null,
  studyType: null,
  studyTypeConfidence: null,
  topic: null,
  topicConfidence: null,
  promotional: null,
  judgementModel: null,
  judgementPromptVersion: null,
  judgedAt: null,
  extractedAt: null,
}

export async function seedCorpus(api: ExportsApi): Promise<void> {
  const { db } = api.database
  await insertPapers(db, [
    paperRow({ id: 'MED-1', abstract: 'An open abstract under CC BY.', abstractLicense: 'cc by' }),
    paperRow({ id: 'MED-2', abstract: WITHHELD_ABSTRACT, abstractLicense: 'cc by-nc' }),
    paperRow({ id: 'MED-3', abstract: WITHHELD_ABSTRACT, abstractLicense: null, relevance: 0.4 }),
    paperRow({
      id: 'PPR-4',
      source: 'PPR',
      preprint: true,
      abstract: 'A public-domain abstract.',
      abstractLicense: 'public domain',
      ...unjudged,
    }),
  ])
  await insertStory(db, 'MED-1')
  await insertStory(db, 'MED-2', { publishedAt: new Date('2026-10-04T08:00:00Z') })
  const rapamycin = await insertEntity(db, 'intervention', 'rapamycin', 'Rapamycin', { chebi: 'CHEBI:9168' })
  const mouse = await insertEntity(db, 'organism', 'NCBITaxon:10090', 'Mouse')
  await insertEntity(db, 'gene', 'NCBIGene:0', 'Nobody studies it') // paper_count 0: not listed, not exported
  await linkEntity(db, 'MED-1', '2026-10-02', rapamycin.id, 'studied', { mention: 'open mention' })
  await linkEntity(db, 'MED-2', '2026-10-02', rapamycin.id, 'studied', { mention: WITHHELD_MENTION })
  await linkEntity(db, 'MED-2', '2026-10-02', mouse.id, 'model')
  await insertClaim(db, { paperId: 'MED-1', subjectEntityId: rapamycin.id, evidence: 'Open evidence sentence.' })
  await insertClaim(db, {
    paperId: 'MED-2',
    subjectEntityId: rapamycin.id,
    objectEntityId: mouse.id,
    evidence: WITHHELD_EVIDENCE,
  })
  await insertClaim(db, { paperId: 'MED-3', evidence: WITHHELD_EVIDENCE, createdAt: new Date('2026-10-03T00:00:00Z') })
  await refreshEntityCounts(db)
}

/** Gives the calling file its database (seeded unless `seed` is false), app, export directory and keys. */
export function useExportsApi(options: { seed?: boolean } = {}): ExportsApi {
  const api = {} as ExportsApi
  beforeAll(async () => {
    api.dir = mkdtempSync(join(tmpdir(), 'geroscope-exports-'))
    api.env = { EXPORT_DIR: api.dir, PUBLIC_BASE_URL: 'https://geroscope.test' }
    api.database = await freshDatabase()
    api.app = await testApp(api.database, {}, api.env)
    api.pro = (await createTestKey(api.database.db, { tier: 'pro' })).key
    api.member = (await createTestKey(api.database.db, { tier: 'member' })).key
    if (options.seed !== false) await seedCorpus(api)
  })
  afterAll(async () => {
    await api.database?.close()
    if (api.dir) rmSync(api.dir, { recursive: true, force: true })
  })
  return api
}

export const runExportCli = (api: ExportsApi) => cliWithEnv(api.database, api.env, 'export')

export async function get(api: ExportsApi, path: string, key = api.pro, headers: Record<string, string> = {}) {
  const response = await api.app.handle(req(path, { headers: { ...bearer(key).headers, ...headers } }))
  return response
}

export type Listed = {
  resource: string
  file: string
  count: number
  bytes: number
  sha256: string
  generated_at: string
  url: string
  content_type: string
  content_encoding: string
  csv: {
    file: string
    bytes: number
    sha256: string
    url: string
    content_type: string
    content_encoding: string
  } | null
}

export async function listExports(api: ExportsApi): Promise<Listed[]> {
  const response = await get(api, '/api/v1/exports')
  if (response.status !== 200)
    throw new Error(`GET /api/v1/exports answered ${response.status}: ${await response.text()}`)
  return (await response.json()).data
}

/** The path part of a listed file's URL. */
export const pathOf = (url: string) => new URL(url).pathname

export async function download(api: ExportsApi, file: Listed): Promise<Uint8Array> {
  const response = await get(api, pathOf(file.url))
  if (response.status !== 200) throw new Error(`download answered ${response.status}: ${await response.text()}`)
  return new Uint8Array(await response.arrayBuffer())
}

export const linesOf = (gz: Uint8Array) =>
  gunzipSync(gz)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))

export const filesIn = (dir: string) => readdirSync(dir).sort()
