/**
 * End-to-end tests in a real browser: Debian's Chromium driven by playwright-core (no browser
 * download; `.ci/run` installs the `chromium` package). Where Chromium is not installed the browser
 * tests say so and are left out; CI always has it.
 *
 *   const browser = useBrowser()            // in a describe block: one browser for the file
 *   const page = await browser.page(390)    // a fresh page 390 px wide
 *   await screenshot(page, 'home-390')      // into artifacts/screenshots/, kept by CI
 */
import { afterAll, beforeAll } from 'bun:test'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'

export const chromiumPath = process.env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium'
export const haveBrowser = existsSync(chromiumPath)

/** Logs, once per file, that its browser tests were left out. */
export function noteMissingBrowser(what: string): void {
  if (!haveBrowser)
    console.log(`${what}: browser tests left out because ${chromiumPath} is missing (apt-get install chromium)`)
}

/**
 * The flags the machine's probe found necessary: headless, no sandbox (tests run as root), and no
 * background networking, which a closed network refuses many times over at every start.
 */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]

export type TestBrowser = {
  /** A new page in a new context of the given width (height 900), closed with the browser. */
  page: (width?: number) => Promise<Page>
}

/** One headless Chromium for the calling test file, launched before its tests and closed after. */
export function useBrowser(): TestBrowser {
  let browser: Browser | null = null
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: FLAGS })
  })
  afterAll(async () => {
    await browser?.close()
  })
  return {
    page: async (width = 1280) => {
      if (!browser) throw new Error('the browser is not running: call useBrowser() inside a describe block that runs')
      const context = await browser.newContext({ viewport: { width, height: 900 } })
      return context.newPage()
    },
  }
}

export const screenshotDir = fileURLToPath(new URL('../../artifacts/screenshots/', import.meta.url))

/** A full-page screenshot under artifacts/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true })
  const path = `${screenshotDir}${name}.png`
  await page.screenshot({ path, fullPage: true })
  return path
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, which a page's CSP does not
 * govern) and answers the serious and critical violations; `options` are axe.run's (all rules when
 * left out).
 */
export async function seriousViolations(page: Page, options: object = {}): Promise<AxeViolation[]> {
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async (runOptions) => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> }
      }
    ).axe
    const result = await axe.run(document, runOptions)
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }))
  }, options)
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}
