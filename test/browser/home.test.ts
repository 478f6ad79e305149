/** The browser harness itself: the home page served over a real socket renders in Chromium. */
import { describe, expect, test } from 'bun:test'
import { serve } from '../../src/platform/serve'
import { haveBrowser, noteMissingBrowser, screenshot, useBrowser } from '../support/browser'
import { useTestApp } from '../support/app'

noteMissingBrowser('home page')

describe.skipIf(!haveBrowser)('the home page in Chromium', () => {
  const api = useTestApp()
  const browser = useBrowser()

  test('renders with its title and links to the API reference', async () => {
    const server = serve(api.app.fetch, 0)
    try {
      const page = await browser.page(390)
      const response = await page.goto(`http://127.0.0.1:${server.port}/`)
      expect(response?.status()).toBe(200)
      expect(await page.title()).toContain('Geroscope')
      expect(await page.locator('a[href="/api/v1/docs"]').count()).toBeGreaterThan(0)
      await screenshot(page, 'home-390')
    } finally {
      await server.stop()
    }
  })
})
