/** Site pages come from the response cache, and a change to the data shows on the next request. */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { papers, stories } from '../../src/db/schema'
import { req, useTestApp } from '../support/app'
import { eventually } from '../support/eventually'
import { insertPapers, insertStory, paperRow } from '../support/fixtures'

const api = useTestApp()

describe('cached site pages', () => {
  test('a page asked twice is the same page, and shows a change to the data on a later request', async () => {
    await insertPapers(api.database.db, [paperRow({ id: 'MED-71000001', title: 'Before the change' })])
    const path = '/papers/MED-71000001'
    const first = await (await api.app.handle(req(path))).text()
    expect(first).toContain('Before the change')
    expect(await (await api.app.handle(req(path))).text()).toBe(first)
    await api.database.db.update(papers).set({ title: 'After the change' }).where(eq(papers.id, 'MED-71000001'))
    expect(
      await eventually(async () => (await (await api.app.handle(req(path))).text()).includes('After the change')),
    ).toBe(true)
  })

  test('failures are not kept: a 404 page becomes the paper once it exists', async () => {
    const path = '/papers/MED-71000002'
    expect((await api.app.handle(req(path))).status).toBe(404)
    await insertPapers(api.database.db, [paperRow({ id: 'MED-71000002' })])
    expect(await eventually(async () => (await api.app.handle(req(path))).status === 200)).toBe(true)
  })

  test('a feed asked twice is the same feed with the same validators, and shows a new headline on a later request', async () => {
    await insertPapers(api.database.db, [paperRow({ id: 'MED-71000003' })])
    await insertStory(api.database.db, 'MED-71000003', { headline: 'The first headline' })
    const first = await api.app.handle(req('/feed.xml'))
    const xml = await first.text()
    expect(xml).toContain('The first headline')
    const again = await api.app.handle(req('/feed.xml'))
    expect(await again.text()).toBe(xml)
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'))
    expect(again.headers.get('last-modified')).toBe(first.headers.get('last-modified'))
    expect(
      (await api.app.handle(req('/feed.xml', { headers: { 'if-none-match': first.headers.get('etag')! } }))).status,
    ).toBe(304)
    await api.database.db
      .update(stories)
      .set({ headline: 'A changed headline' })
      .where(eq(stories.paperId, 'MED-71000003'))
    expect(
      await eventually(async () =>
        (await (await api.app.handle(req('/feed.xml'))).text()).includes('A changed headline'),
      ),
    ).toBe(true)
  })
})
