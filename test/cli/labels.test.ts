import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { correctJudgement } from '../../src/pipeline/judgements/correct'
import { createAccount } from '../../src/accounts/accounts'
import { cli } from '../support/cli'
import { freshDatabase, type TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'

let database: TestDatabase
let dir: string
let editorId: number
beforeAll(async () => {
  database = await freshDatabase()
  dir = mkdtempSync(join(tmpdir(), 'geroscope-labels-'))
})
afterAll(async () => {
  await database.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('cli labels export', () => {
  test('with no correction yet, writes an empty set', async () => {
    const result = await cli(database, 'labels', 'export')
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout.join('\n'))).toEqual({
      source: 'editor-corrections',
      exported_at: expect.any(String),
      papers: [],
    })
  })

  test('writes every editor correction in the hand-labelled format, with its record', async () => {
    const mesh = [{ descriptor: 'Cellular Senescence', major: true, qualifiers: ['drug effects'] }]
    await insertPapers(database.db, [
      paperRow({
        id: 'MED-8800002',
        title: 'Senolytics in old mice',
        abstract: 'Dasatinib and quercetin cleared senescent cells.',
        meshHeadings: mesh,
        keywords: ['senolytic'],
      }),
      paperRow({
        id: 'MED-8800001',
        title: 'Frailty as a predictor of surgical outcome',
        abstract: null,
        publicationTypes: ['Journal Article', 'Observational Study'],
      }),
      paperRow({ id: 'MED-8800003', title: 'Judged by the analysis only' }),
    ])
    const editor = await createAccount(database.db, {
      username: 'editor-1',
      password: 'a long password',
      role: 'admin',
      membership: 'active',
    })
    editorId = editor.id
    const at = new Date('2026-11-28T10:00:00Z')
    expect(
      (
        await correctJudgement(
          database.db,
          'MED-8800002',
          { relevance: 2.49, topic: 'senescence', note: 'Senolytic clearance in aged mice.' },
          editor.id,
          at,
        )
      ).kind,
    ).toBe('corrected')
    expect(
      (
        await correctJudgement(
          database.db,
          'MED-8800001',
          { relevance: 0.5, studyType: 'human_observational', newsworthiness: 0.4 },
          editor.id,
          at,
        )
      ).kind,
    ).toBe('corrected')

    const out = join(dir, 'corrections.json')
    const result = await cli(database, 'labels', 'export', '--out', out)
    expect(result).toEqual({ code: 0, stdout: [`2 editor corrections written to ${out}`], stderr: [] })
    const file = JSON.parse(readFileSync(out, 'utf8'))
    expect(file.source).toBe('editor-corrections')
    expect(Date.parse(file.exported_at)).toBeGreaterThan(Date.now() - 60_000)
    expect(file.papers).toEqual([
      {
        id: 'MED-8800001',
        relevance: 1,
        study_type: 'human_observational',
        topic: 'mtor-rapamycin',
        newsworthiness: 0,
        rationale: 'editor correction',
        record: {
          title: 'Frailty as a predictor of surgical outcome',
          abstract: null,
          journal: 'Aging Cell',
          publication_types: ['Journal Article', 'Observational Study'],
          mesh_headings: [],
          keywords: [],
        },
      },
      {
        id: 'MED-8800002',
        relevance: 2,
        study_type: 'animal',
        topic: 'senescence',
        newsworthiness: 1,
        rationale: 'Senolytic clearance in aged mice.',
        record: {
          title: 'Senolytics in old mice',
          abstract: 'Dasatinib and quercetin cleared senescent cells.',
          journal: 'Aging Cell',
          publication_types: ['Journal Article'],
          mesh_headings: mesh,
          keywords: ['senolytic'],
        },
      },
    ])
    // The same JSON on stdout without --out.
    const printed = JSON.parse((await cli(database, 'labels', 'export')).stdout.join('\n'))
    expect(printed.papers).toEqual(file.papers)
  })

  test("a later correction's note is the rationale", async () => {
    await correctJudgement(
      database.db,
      'MED-8800001',
      { relevance: 1.6, note: 'Clinical frailty, tangential.' },
      editorId,
      new Date('2026-11-28T11:00:00Z'),
    )
    const printed = JSON.parse((await cli(database, 'labels', 'export')).stdout.join('\n'))
    expect(printed.papers[0]).toMatchObject({
      id: 'MED-8800001',
      relevance: 2,
      rationale: 'Clinical frailty, tangential.',
    })
  })

  test.each([
    ['an unknown flag', ['labels', 'export', '--file', 'x.json'], 'error: unknown option --file (expected --out)', 2],
    ['--out without a value', ['labels', 'export', '--out'], 'error: --out needs a value', 2],
    [
      'a directory that does not exist',
      ['labels', 'export', '--out', '/nonexistent-dir/x.json'],
      'error: cannot write /nonexistent-dir/x.json: ENOENT',
      1,
    ],
  ])('fails on %s with one line on stderr', async (_name, argv, message, code) => {
    expect(await cli(database, ...(argv as string[]))).toEqual({
      code: code as number,
      stdout: [],
      stderr: [message as string],
    })
  })
})
