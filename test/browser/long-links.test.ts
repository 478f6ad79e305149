/**
 * A long DOI (or any unbroken link text) wraps at 390 px instead of widening the page: on the story page
 * (its credit line names the DOI) and on the paper page (its facts list does).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { RunningServer } from '../../src/platform/serve'
import { haveBrowser, noteMissingBrowser, screenshot, useBrowser } from '../support/browser'
import { serveAtItsOrigin } from '../support/app'
import { freshDatabase, type TestDatabase } from '../support/database'
import { insertPapers, insertStory, paperRow } from '../support/fixtures'

noteMissingBrowser('long links')

// A real shape of long DOI: a bioRxiv preprint's supplementary material.
const DOI = '10.1101/2026.10.01.612345678v2.supplementary-material-table-s12-single-cell-atlas'

describe.skipIf(!haveBrowser)('a long DOI at 390 px', () => {
  const browser = useBrowser()
  let database: TestDatabase
  let server: RunningServer
  let origin = ''

  beforeAll(async () => {
    database = await freshDatabase()
    await insertPapers(database.db, [paperRow({ id: 'MED-77', doi: DOI })])
    await insertStory(database.db, 'MED-77')
    ;({ server, origin } = await serveAtItsOrigin(database))
  })
  afterAll(async () => {
    await server?.stop()
    await database?.close()
  })

  test('the story page and the paper page are no wider than the screen', async () => {
    const page = await browser.page(390)
    for (const [name, path] of [
      ['story', '/stories/MED-77'],
      ['paper', '/papers/MED-77'],
    ]) {
      expect((await page.goto(`${origin}${path}`))?.status()).toBe(200)
      expect(await page.locator(`a[href="https://doi.org/${DOI}"]`).count()).toBeGreaterThan(0)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      await screenshot(page, `long-doi-${name}-390`)
      expect({ path, overflow }).toEqual({ path, overflow: 0 })
    }
    await page.context().close()
  }, 60_000)
})
