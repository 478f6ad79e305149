/** Site pages come from the response cache, and a change to the data shows on the next request. */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { papers } from '../../src/db/schema'
import { req, useTestApp } from '../support/app'
import { eventually } from '../support/eventually'
import { insertPapers, paperRow } from '../support/fixtures'

const api = useTestApp()

describe('cached site pages', () => {
  test('a page asked twice is the same page, and shows a change to the data on a later request', async () => {
    await insertPapers(api.database.db, [paperRow({ id: 'MED-71000001', title: 'Before the change' })])
    const path = '/papers/MED-71000001'
    const first = await (await api.app.handle(req(path))).text()
    expect(first).toContain('Before the change')
    expect(await (await api.app.handle(req(path))).text()).toBe(first)
    await api.database.db.update(papers).set({ title: 'After the change' }).where(eq(papers.id, 'MED-71000001'))
    expect(await eventually(async () => (await (await api.app.handle(req(path))).text()).includes('After the change'))).toBe(true)
  })

  test('failures are not kept: a 404 page becomes the paper once it exists', async () => {
    const path = '/papers/MED-71000002'
    expect((await api.app.handle(req(path))).status).toBe(404)
    await insertPapers(api.database.db, [paperRow({ id: 'MED-71000002' })])
    expect(await eventually(async () => (await api.app.handle(req(path))).status === 200)).toBe(true)
  })
})
