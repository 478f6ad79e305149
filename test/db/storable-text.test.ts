import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { desc, eq, sql } from 'drizzle-orm'
import { jobRuns } from '../../src/db/schema'
import { errorText, storable, storableText } from '../../src/db/storable-text'
import { recordRun } from '../../src/jobs/job-runs'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'

describe('storableText', () => {
  test.each([
    ['plain text', 'Café au lait 🧬', 'Café au lait 🧬'],
    ['a NUL', 'a\u0000b\u0000', 'ab'],
    ['a lone high surrogate', 'a\ud800b', 'a\ufffdb'],
    ['a lone low surrogate', '\udc00a', '\ufffda'],
    ['a pair cut at its end', 'gene \ud83e', 'gene \ufffd'],
    ['control characters PostgreSQL accepts', 'tab\tline\nbell\u0007', 'tab\tline\nbell\u0007'],
  ])('%s', (_name, input, output) => {
    expect(storableText(input)).toBe(output)
  })

  test('reaches every string of a JSON-like value, keys included, and leaves other values alone', () => {
    const date = new Date('2026-11-20T10:00:00Z')
    const value: Record<string, unknown> = { 'k\u0000': ['a\u0000', { deep: '\udc00' }, 3, null, true], date }
    expect(storable(value)).toEqual({ k: ['a', { deep: '\ufffd' }, 3, null, true], date })
  })
})

describe('errorText', () => {
  test('cuts long messages, drops NUL and replaces what the cut leaves of a surrogate pair', () => {
    expect(errorText(new Error(`${'x'.repeat(9)}🧬 and more`), 10)).toBe(`${'x'.repeat(9)}\ufffd`)
    expect(errorText('bad\u0000byte')).toBe('badbyte')
  })

  test('names the database reason instead of the statement and its parameters', () => {
    const cause = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' })
    const wrapped = new Error(`Failed query: insert into articles ...\nparams: ${'a\u0000'.repeat(100_000)}`, { cause })
    expect(errorText(wrapped)).toBe('the database refused the write: invalid byte sequence for encoding "UTF8": 0x00')
  })
})

describe(`storable text on ${testDriver}`, () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await freshDatabase()
  })
  afterAll(async () => {
    await database.close()
  })

  test('what PostgreSQL refuses as it comes is accepted once made storable, in text and jsonb', async () => {
    const hostile = { text: 'a\u0000b\ud800c', json: { 'k\u0000': ['\udfff', 'x\u0000'] } }
    const write = (value: typeof hostile) =>
      database.rows(sql`select ${value.text}::text as t, ${JSON.stringify(value.json)}::jsonb as j`)
    await expect(write(hostile)).rejects.toThrow()
    expect(await write(storable(hostile))).toEqual([{ t: 'ab\ufffdc', j: { k: ['\ufffd', 'x'] } }])
  })

  test('a job that fails with a NUL in its message is still recorded as failed', async () => {
    const failing = recordRun(database.db, 'probe', async () => {
      throw new Error('feed said "\u0000"')
    })
    await expect(failing).rejects.toThrow('feed said')
    const [run] = await database.db
      .select()
      .from(jobRuns)
      .where(eq(jobRuns.job, 'probe'))
      .orderBy(desc(jobRuns.id))
      .limit(1)
    expect(run).toMatchObject({ outcome: 'failed', error: 'feed said ""' })
  })
})
