/**
 * A member changes their password in the console, in Chromium: a wrong current one is shown on the form (the member
 * stays signed in), the other session of the account ends, this one stays. The screen passes axe-core. (A file of its
 * own: every check of an ended session spends the client address's allowance of 10 anonymous requests a minute.)
 */
import { describe, expect, test } from 'bun:test'
import { authenticate } from '../../src/accounts/accounts'
import { haveBrowser, noteMissingBrowser, screenshot, useBrowser } from '../support/browser'
import { expectAccessible, open, signIn, useConsole, watchProblems } from './support'

noteMissingBrowser('console password')

describe.skipIf(!haveBrowser)("changing one's password in the console", () => {
  const world = useConsole(() => '<rss version="2.0"><channel><title>empty</title></channel></rss>')
  const browser = useBrowser()

  /** A session of the account made outside the browser, as another device would; answers its /api/auth/me status. */
  async function otherDevice(username: string, password: string) {
    const login = await fetch(`${world.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    })
    expect(login.status).toBe(200)
    const cookie = login.headers.get('set-cookie')!.split(';')[0]
    return async () => (await fetch(`${world.base}/api/auth/me`, { headers: { cookie } })).status
  }

  test('a member changes their password: the other session ends, this one stays', async () => {
    const member = await world.account('member')
    const device = await otherDevice(member.username, member.password)
    const page = await browser.page(390)
    const problems = watchProblems(page)
    await signIn(page, world.base, member)
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'My password' }).click()
    await page.getByRole('heading', { level: 1, name: 'Change your password' }).waitFor()
    await expectAccessible(page, 'password')

    await page.getByLabel('Current password').fill('not the password at all')
    await page.getByLabel('New password', { exact: true }).fill('a brand new password')
    await page.getByLabel('New password again').fill('a brand new password')
    await page.getByRole('button', { name: 'Change password' }).click()
    // Shown on the form; the member stays signed in.
    await page.getByRole('alert').getByText("current_password is not the account's password").waitFor()
    expect(new URL(page.url()).pathname).toBe('/console/password')

    await page.getByLabel('Current password').fill(member.password)
    await page.getByLabel('New password again').fill('a different new password')
    await page.getByRole('button', { name: 'Change password' }).click()
    await page
      .getByRole('alert')
      .getByText(/two new passwords differ/)
      .waitFor()

    await page.getByLabel('New password again').fill('a brand new password')
    await page.getByRole('button', { name: 'Change password' }).click()
    await page.getByText('Password changed. 1 other session ended.').waitFor()
    await screenshot(page, 'console-password-390')
    expect(await device()).toBe(401)
    await open(page, `${world.base}/console/keys`, 'My API keys') // this session goes on
    const account = await authenticate(world.database.db, member.username, 'a brand new password')
    expect(account).toMatchObject({ id: member.id })
    expect(problems).toEqual([])
  })
})
