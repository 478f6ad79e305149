/**
 * A member in the console, in Chromium: signs in, sees only their own keys, creates one, uses it on
 * the Data API, revokes it (refused within 2 seconds); operator screens stay closed to them.
 */
import { describe, expect, test } from 'bun:test'
import { eventually } from '../support/eventually'
import { haveBrowser, noteMissingBrowser, screenshot, useBrowser } from '../support/browser'
import { createTestKey } from '../support/fixtures'
import { signIn, useConsole, watchProblems } from './support'

noteMissingBrowser('member console')

describe.skipIf(!haveBrowser)('a member in the console', () => {
  const world = useConsole(() => '<rss version="2.0"><channel><title>empty</title></channel></rss>')
  const browser = useBrowser()

  test("signs in, creates a key, uses it against /api/v1, revokes it; sees no one else's keys", async () => {
    const member = await world.account('member')
    const other = await world.account('member')
    const othersKey = await createTestKey(world.database.db, { tier: 'member', accountId: other.id })
    const page = await browser.page(390)
    const problems = watchProblems(page)

    await page.goto(`${world.base}/console/sign-in`)
    await page.getByLabel('Username').fill(member.username)
    await page.getByLabel('Password').fill('not the password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page
      .getByRole('alert')
      .getByText(/username or password/i)
      .waitFor() // the API's 401 message, shown
    expect(new URL(page.url()).pathname).toBe('/console/sign-in')

    await signIn(page, world.base, member)
    expect(new URL(page.url()).pathname).toBe('/console/keys') // members land on their keys
    const nav = page.getByRole('navigation', { name: 'Console sections' })
    expect(await nav.getByRole('link').allInnerTexts()).toEqual(['My keys', 'My password'])
    const keys = page.getByRole('region', { name: 'Your keys, oldest first' })
    expect(await keys.innerText()).toContain('None yet.')
    expect(await keys.innerText()).not.toContain(othersKey.keyId)

    await page.getByLabel('Label').fill('notebook')
    await page.getByRole('button', { name: 'Create key' }).click()
    const shown = page.getByLabel('The key')
    await shown.waitFor()
    const key = await shown.inputValue()
    expect(key).toMatch(/^grk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/)
    const id = key.slice(4, 12)
    await keys.getByText('notebook').waitFor()
    await screenshot(page, 'console-member-keys-390')

    const v1 = () =>
      fetch(`${world.base}/api/v1/papers?min_relevance=0`, { headers: { authorization: `Bearer ${key}` } })
    expect((await v1()).status).toBe(200)

    await page.getByRole('button', { name: `Revoke grk_${id}` }).click()
    await page.getByRole('button', { name: `Confirm: revoke grk_${id}` }).click()
    await keys.getByText(/revoked \d{4}-/).waitFor()
    const revokedAt = performance.now()
    expect(await eventually(async () => (await v1()).status === 401, 2000)).toBe(true)
    expect(performance.now() - revokedAt).toBeLessThan(2000)

    await page.goto(`${world.base}/console/sources`) // an operator screen: closed, and /api says so too
    await page.getByRole('heading', { level: 1, name: 'For operators only' }).waitFor()
    expect((await page.request.get(`${world.base}/api/sources`)).status()).toBe(403)
    expect(problems).toEqual([])
  })
})
