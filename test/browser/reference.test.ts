/**
 * The Data API reference in Chromium: it renders from this service alone (no other host is asked
 * for anything), and its "try it" call, authorised with a key, gets a 200 from the API.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { RunningServer } from '../../src/platform/serve'
import { haveBrowser, noteMissingBrowser, screenshot, useBrowser } from '../support/browser'
import { serveAtItsOrigin } from '../support/app'
import { freshDatabase, type TestDatabase } from '../support/database'
import { createTestKey, insertPapers, paperRow } from '../support/fixtures'

noteMissingBrowser('API reference')

describe.skipIf(!haveBrowser)('the API reference in Chromium', () => {
  const browser = useBrowser()
  let database: TestDatabase
  let server: RunningServer
  let origin: string
  let key: string

  beforeAll(async () => {
    database = await freshDatabase()
    await insertPapers(database.db, [paperRow({ id: 'MED-1', topic: 'senescence' })])
    key = (await createTestKey(database.db, { tier: 'pro' })).key
    ;({ server, origin } = await serveAtItsOrigin(database))
  })
  afterAll(async () => {
    await server?.stop()
    await database?.close()
  })

  test('renders every endpoint, loads nothing from elsewhere, and "try it" answers 200 with a key', async () => {
    const page = await browser.page(1280)
    const elsewhere: string[] = []
    page.on('request', (request) => {
      if (!request.url().startsWith(origin)) elsewhere.push(request.url())
    })
    expect((await page.goto(`${origin}/api/v1/docs`))?.status()).toBe(200)
    await page.locator('.opblock-summary-path[data-path="/api/v1/stats"]').waitFor({ timeout: 20_000 })
    const spec = (await (await fetch(`${origin}/api/v1/openapi.json`)).json()) as { paths: Record<string, object> }
    const operations = Object.values(spec.paths).reduce((n, methods) => n + Object.keys(methods).length, 0)
    expect(await page.locator('.opblock').count()).toBe(operations)
    await screenshot(page, 'api-docs-1280')

    await page.locator('button.authorize').first().click()
    await page.locator('.modal-ux input').first().fill(key)
    await page.locator('.modal-ux button.authorize').click()
    await page.locator('.modal-ux button.btn-done').click()

    await page.locator('.opblock-summary-path[data-path="/api/v1/stats"]').click()
    const operation = page.locator('.opblock', { has: page.locator('[data-path="/api/v1/stats"]') })
    await operation.locator('button.try-out__btn').click()
    await operation.locator('button.execute').click()
    const status = operation.locator('.live-responses-table .response .response-col_status').first()
    await status.waitFor({ timeout: 20_000 })
    expect((await status.innerText()).trim()).toBe('200')
    expect(await operation.locator('.live-responses-table').innerText()).toContain('"papers"')
    await screenshot(page, 'api-docs-try-it-1280')
    expect(elsewhere).toEqual([])

    const narrow = await browser.page(390)
    await narrow.goto(`${origin}/api/v1/docs`)
    await narrow.locator('.opblock').first().waitFor({ timeout: 20_000 })
    await screenshot(narrow, 'api-docs-390')
  }, 60_000)

  test('the admin reference renders the admin document', async () => {
    const page = await browser.page(1280)
    expect((await page.goto(`${origin}/api/docs`))?.status()).toBe(200)
    await page.locator('.opblock-summary-path[data-path="/api/auth/login"]').waitFor({ timeout: 20_000 })
    await screenshot(page, 'api-admin-docs-1280')
  }, 60_000)
})
