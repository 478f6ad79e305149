/**
 * The console's progress and cancel, in Chromium at 1280 and 390 px, against a slow local feed server read by
 * the real scraper (SCRAPE_ALLOW_PRIVATE=on lets the address guard pass 127.0.0.1, as in every console test):
 * a scrape started on the Jobs screen shows done of total and the elapsed time, Cancel stops it after the
 * sources in progress, the run is listed as cancelled when it ends; an export is followed to its end; no
 * control is ever covered (the status bar included); axe-core finds no serious violation; the prompts screen
 * says that no model is configured and numbers its history by version.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq, inArray, isNotNull, and } from 'drizzle-orm'
import { jobRuns, rssSources } from '../../src/db/schema'
import { haveBrowser, noteMissingBrowser, screenshot, useBrowser } from '../support/browser'
import { replayServer, type ReplayServer } from '../support/replay-server'
import { coveredControls, expectAccessible, open, signIn, useConsole, watchProblems } from './support'

noteMissingBrowser('console job progress')

const exportDir = mkdtempSync(join(tmpdir(), 'geroscope-console-export-'))

/** /slow/… answers after a while; /held/… also waits for `release()`, so the test knows which sources were under way. */
let slowFeeds: ReplayServer
let gate!: Promise<void>
let release!: () => void
const arm = () => {
  gate = new Promise((resolve) => {
    release = resolve
  })
}
beforeAll(() => {
  arm()
  slowFeeds = replayServer(async (_, url) => {
    await new Promise((resolve) => setTimeout(resolve, 300))
    if (url.pathname.startsWith('/held/')) await gate
    const n = url.pathname.replaceAll('/', '-')
    return new Response(
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Slow ${n}</title><item><title>Senolytics ${n}</title>` +
        `<link>https://news.test/${n}</link><description>Senolytics cleared senescent cells in aged mice.</description></item></channel></rss>`,
      { headers: { 'content-type': 'application/rss+xml' } },
    )
  })
})
afterAll(async () => {
  release()
  await slowFeeds.stop()
  rmSync(exportDir, { recursive: true, force: true })
})

describe.skipIf(!haveBrowser)('the console follows and cancels job runs', () => {
  const world = useConsole(() => '<rss version="2.0"><channel></channel></rss>', { EXPORT_DIR: exportDir })
  const browser = useBrowser()

  /** Disables every source and adds 4 fast and 6 held ones: the scrape's 4 lanes end the fast ones, then wait at the gate. */
  async function tenSources(prefix: string) {
    await world.database.db.update(rssSources).set({ enabled: false })
    return world.database.db
      .insert(rssSources)
      .values([
        ...Array.from({ length: 4 }, (_, i) => ({
          name: `${prefix} slow ${i}`,
          url: `${slowFeeds.url}/slow/${prefix}${i}`,
        })),
        ...Array.from({ length: 6 }, (_, i) => ({
          name: `${prefix} held ${i}`,
          url: `${slowFeeds.url}/held/${prefix}${i}`,
        })),
      ])
      .returning()
  }

  for (const width of [1280, 390]) {
    test(`at ${width} px: a scrape shows done of total and elapsed time, Cancel stops it at the next source, the runs table shows it cancelled`, async () => {
      const sources = await tenSources(`w${width}-`)
      const page = await browser.page(width)
      const problems = watchProblems(page)
      await signIn(page, world.base, await world.account('admin'))
      await open(page, `${world.base}/console/jobs`, 'Jobs')
      expect(await coveredControls(page)).toEqual([])

      await page.getByRole('button', { name: 'Scrape all sources' }).click()
      const panel = page.locator('.progress-card').first()
      await panel.getByText('4 of 10 sources done').waitFor({ timeout: 20_000 })
      const runId = Number(await panel.getAttribute('data-run'))
      expect(await panel.locator('progress').evaluate((el: HTMLProgressElement) => [el.value, el.max])).toEqual([4, 10])
      // The elapsed time counts on between reads.
      const elapsed = async () => panel.locator('.elapsed').textContent()
      const first = await elapsed()
      expect(first).toMatch(/^\d+ s$/)
      await page.waitForFunction(
        (before) => document.querySelector('.progress-card .elapsed')?.textContent !== before,
        first,
        { timeout: 5000 },
      )
      // The status bar (showing "run … started") covers nothing, the panel's Cancel button included.
      await page
        .locator('#status')
        .getByText(/Scrape: run \d+ started/)
        .waitFor()
      expect(await coveredControls(page)).toEqual([])
      await expectAccessible(page, `jobs-progress-${width}`)
      await screenshot(page, `console-jobs-progress-${width}`)

      await panel.getByRole('button', { name: `Cancel Scrape run ${runId}` }).click()
      await panel.getByText(/cancelling: it stops after the current unit/).waitFor()
      const [asked] = await world.database.db.select().from(jobRuns).where(eq(jobRuns.id, runId))
      expect(asked.cancelRequestedAt).not.toBeNull()
      expect(asked.outcome).toBe('running')
      await screenshot(page, `console-jobs-cancelling-${width}`)
      release()

      await panel.locator('.badge.cancelled').waitFor({ timeout: 20_000 })
      await panel.getByText('8 of 10 sources done').waitFor()
      expect(await panel.getByRole('button', { name: /Cancel/ }).count()).toBe(0)
      await page
        .locator('#status')
        .getByText(`Scrape run ${runId} ended: cancelled after 8 of 10 sources`, { exact: false })
        .waitFor()
      // The runs table was read again when the run ended.
      // (By data-label: under 700 px each cell's accessible name also holds its column's name, shown before it.)
      const row = page
        .locator('#job-runs tbody tr')
        .filter({ has: page.locator('td[data-label="Run"]', { hasText: new RegExp(`^${runId}$`) }) })
      await row.locator('td[data-label="Status"]', { hasText: /^cancelled$/ }).waitFor()
      await row.locator('td[data-label="Progress"]', { hasText: /^8 of 10 sources$/ }).waitFor()
      expect(await coveredControls(page)).toEqual([])
      await expectAccessible(page, `jobs-cancelled-${width}`)
      if (width === 390)
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      await screenshot(page, `console-jobs-cancelled-${width}`)

      // What was asked happened: the 8 sources started were fetched and stored, the last 2 never.
      const [run] = await world.database.db.select().from(jobRuns).where(eq(jobRuns.id, runId))
      expect(run).toMatchObject({
        outcome: 'cancelled',
        progressDone: 8,
        progressTotal: 10,
        counts: { sources: 8, added: 8 },
      })
      const fetched = await world.database.db
        .select({ id: rssSources.id })
        .from(rssSources)
        .where(
          and(
            inArray(
              rssSources.id,
              sources.map((s) => s.id),
            ),
            isNotNull(rssSources.lastFetchedAt),
          ),
        )
      expect(fetched.map((r) => r.id).sort((x, y) => x - y)).toEqual(sources.slice(0, 8).map((s) => s.id))
      expect(problems).toEqual([])
      arm()
    }, 90_000)
  }

  test('an export started on the Jobs screen is followed to its end at 390 px', async () => {
    const page = await browser.page(390)
    const problems = watchProblems(page)
    await signIn(page, world.base, await world.account('admin'))
    await open(page, `${world.base}/console/jobs`, 'Jobs')
    await page.getByRole('button', { name: 'Write the export' }).click()
    const panel = page.locator('.progress-card').first()
    await panel.locator('.badge.ok').waitFor({ timeout: 30_000 })
    await panel.getByText('4 of 4 resources done').waitFor()
    await page
      .locator('#status')
      .getByText(/Export run \d+ ended: ok/)
      .waitFor()
    expect(await coveredControls(page)).toEqual([])
    await screenshot(page, 'console-jobs-export-390')
    expect(problems).toEqual([])
  }, 60_000)

  for (const width of [1280, 390]) {
    test(`at ${width} px: the prompts screens say no model is configured; the history is numbered by version`, async () => {
      const page = await browser.page(width)
      const problems = watchProblems(page)
      await signIn(page, world.base, await world.account('admin'))
      await open(page, `${world.base}/console/prompts`, 'Prompts')
      await page
        .locator('#model-notice')
        .getByText('No model is configured, so these prompts are not used now.')
        .waitFor()
      await expectAccessible(page, `prompts-${width}`)
      await screenshot(page, `console-prompts-no-model-${width}`)

      await open(page, `${world.base}/console/prompts/judge`, /^Prompt: /)
      await page
        .locator('#model-notice')
        .getByText(/not used now/)
        .waitFor()
      const before = await page.locator('ul.versions > li').count()
      await page.getByLabel('Prompt text').fill(`A judge prompt edited at ${width} px.`)
      await page.getByRole('button', { name: 'Save new version' }).click()
      await page
        .locator('#status')
        .getByText(/Saved as version \d+\./)
        .waitFor()
      const versions = await page
        .locator('ul.versions > li')
        .evaluateAll((items) => items.map((li) => Number(li.getAttribute('data-version'))))
      expect(versions.length).toBe(before + 1)
      expect(versions).toEqual([...versions].sort((x, y) => y - x)) // newest first, each with its own number
      const newest = versions[0]
      await page.locator('ul.versions > li').first().getByText(`Version ${newest}`, { exact: true }).waitFor()
      await page.locator('ul.versions > li').first().getByText('(current)', { exact: false }).waitFor()
      expect(await coveredControls(page)).toEqual([])
      await expectAccessible(page, `prompt-${width}`)
      await screenshot(page, `console-prompt-history-${width}`)
      expect(problems).toEqual([])
    }, 60_000)
  }
})
