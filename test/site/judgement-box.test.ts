/**
 * The judgement box of a paper page names each field it shows: a study type and a topic both "Other" read as
 * "Study type: Other" and "Topic: Other", not as a bare "other" between semicolons; a field not judged says so.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { req, useTestApp } from '../support/app'
import { insertPapers, paperRow } from '../support/fixtures'

const api = useTestApp()
beforeAll(async () => {
  await insertPapers(api.database.db, [
    paperRow({ id: 'MED-10', relevance: 2.2, studyType: 'other', topic: 'other', newsworthiness: 1.5 }),
    paperRow({ id: 'MED-11', relevance: 1.2, studyType: null, topic: null, newsworthiness: null }),
  ])
})

/** The judgement box's fields as "name: value" lines. */
async function judgement(id: string): Promise<string[]> {
  const html = await (await api.app.handle(req(`/papers/${id}`))).text()
  const box = /<div class="verdict">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? ''
  return [...box.matchAll(/<dt>([^<]*)<\/dt><dd>([^<]*)<\/dd>/g)].map(([, name, value]) => `${name}: ${value}`)
}

describe('the judgement box of a paper page', () => {
  test('names each field', async () => {
    expect(await judgement('MED-10')).toEqual([
      'Relevance: aging biology (2.2 of 3)',
      'Study type: Other',
      'Topic: Other',
      'Newsworthiness: 1.5 of 3',
    ])
  })

  test('says which fields were not judged', async () => {
    expect(await judgement('MED-11')).toEqual([
      'Relevance: tangential to aging (1.2 of 3)',
      'Study type: not judged',
      'Topic: not judged',
      'Newsworthiness: not judged',
    ])
  })
})
