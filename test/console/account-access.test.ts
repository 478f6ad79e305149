/**
 * Account access in the console, in Chromium: an operator disables a member (the member's open screen falls back to
 * sign-in, the key is refused within 2 seconds), enables them again, ends their sessions and sets a new password for
 * them; an operator's own account offers no Disable. The screen passes axe-core.
 */
import { describe, expect, test } from 'bun:test'
import { authenticate } from '../../src/accounts/accounts'
import { eventually } from '../support/eventually'
import { haveBrowser, noteMissingBrowser, screenshot, useBrowser } from '../support/browser'
import { createTestKey } from '../support/fixtures'
import { expectAccessible, open, signIn, useConsole, watchProblems } from './support'

noteMissingBrowser('console account access')

describe.skipIf(!haveBrowser)('account access in the console', () => {
  const world = useConsole(() => '<rss version="2.0"><channel><title>empty</title></channel></rss>')
  const browser = useBrowser()

  test('an operator disables a member, enables them, ends their sessions and sets their password', async () => {
    const operator = await world.account('admin')
    const member = await world.account('member')
    const { key } = await createTestKey(world.database.db, { tier: 'member', accountId: member.id })
    const headers = { authorization: `Bearer ${key}` }
    const v1 = async () => (await fetch(`${world.base}/api/v1/papers?min_relevance=0`, { headers })).status
    expect(await v1()).toBe(200)

    const memberPage = await browser.page(1280)
    await signIn(memberPage, world.base, member)
    const page = await browser.page(1280)
    const problems = watchProblems(page)
    await signIn(page, world.base, operator)

    await open(page, `${world.base}/console/accounts/${operator.id}`, `Account ${operator.username}`)
    expect(await page.getByRole('button', { name: `Disable ${operator.username}` }).count()).toBe(0) // not one's own

    await open(page, `${world.base}/console/accounts/${member.id}`, `Account ${member.username}`)
    const state = page.locator('#access-state')
    expect(await state.innerText()).toBe('Sign-in and API keys: enabled.')
    await expectAccessible(page, 'account with access')
    await page.getByRole('button', { name: `Disable ${member.username}` }).click()
    await page.getByRole('button', { name: `Confirm: disable ${member.username}` }).click()
    await page
      .getByText(`${member.username} is disabled: 1 session ended; its keys are refused within 2 seconds.`)
      .waitFor()
    expect(await state.innerText()).toMatch(/^Sign-in and API keys: disabled since \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/)
    await screenshot(page, 'console-account-disabled-1280')
    const disabledAt = performance.now()
    expect(await eventually(async () => (await v1()) === 401, 2000)).toBe(true)
    expect(performance.now() - disabledAt).toBeLessThan(2000)
    await memberPage.goto(`${world.base}/console/keys`)
    await memberPage.waitForURL(/\/console\/sign-in\?next=/) // the session has ended

    await page.getByRole('button', { name: `Enable ${member.username}` }).click()
    await page.getByRole('button', { name: `Confirm: enable ${member.username}` }).click()
    const back = 'it can sign in again, and its keys work again within 2 seconds.'
    await page.getByText(`${member.username} is enabled: ${back}`).waitFor()
    expect(await state.innerText()).toBe('Sign-in and API keys: enabled.')
    expect(await eventually(async () => (await v1()) === 200, 2000)).toBe(true)

    await signIn(memberPage, world.base, member)
    await page.getByRole('button', { name: `End all sessions of ${member.username}` }).click()
    await page.getByRole('button', { name: `Confirm: end all sessions of ${member.username}` }).click()
    await page.getByText(`1 session of ${member.username} ended.`).waitFor()
    await memberPage.goto(`${world.base}/console/keys`)
    await memberPage.waitForURL(/\/console\/sign-in\?next=/)

    await page.getByLabel('New password for the account').fill('set by the operator')
    await page.getByRole('button', { name: 'Set password' }).click()
    await page.getByText(`New password set for ${member.username}; 0 sessions ended.`).waitFor()
    expect(await authenticate(world.database.db, member.username, member.password)).toBeNull()
    const account = await authenticate(world.database.db, member.username, 'set by the operator')
    expect(account).toMatchObject({ id: member.id })

    await open(page, `${world.base}/console/accounts`, 'Accounts')
    expect(await page.getByRole('row', { name: new RegExp(member.username) }).innerText()).toContain('enabled')
    expect(problems).toEqual([])
  })
})
