/**
 * The console under test: the whole app served over a real socket (the browser needs one), a
 * local feed server for the scraper, an operator and a member, and helpers to sign in through the
 * console's own form and to check a screen with axe-core. PUBLIC_BASE_URL is plain http here so
 * the session cookie is not Secure on the test's http origin.
 */
import { afterAll, beforeAll, expect } from 'bun:test'
import type { Page } from 'playwright-core'
import { createAccount, type Membership, type Role } from '../../src/accounts/accounts'
import { serve, type RunningServer } from '../../src/platform/serve'
import { seriousViolations } from '../support/browser'
import { testApp } from '../support/app'
import { freshDatabase, type TestDatabase } from '../support/database'
import { replayServer, type ReplayServer } from '../support/replay-server'

export type Credentials = { id: number; username: string; password: string }

export type ConsoleWorld = {
  database: TestDatabase
  server: RunningServer
  base: string
  feeds: ReplayServer
  /** Creates an account with a password and returns it. */
  account: (role: Role, membership?: Membership) => Promise<Credentials>
}

let serial = 0

/** A feed server answering every path with `feed` (RSS XML), the app and its server (with `env` added), for the calling file. */
export function useConsole(feed: () => string, env: Record<string, string> = {}): ConsoleWorld {
  const world = {} as ConsoleWorld
  beforeAll(async () => {
    world.database = await freshDatabase()
    const app = await testApp(
      world.database,
      {},
      { SCRAPE_ALLOW_PRIVATE: 'on', PUBLIC_BASE_URL: 'http://127.0.0.1', ...env },
    )
    world.server = serve(app.fetch, 0)
    world.base = `http://127.0.0.1:${world.server.port}`
    world.feeds = replayServer(() => new Response(feed(), { headers: { 'content-type': 'application/rss+xml' } }))
  })
  afterAll(async () => {
    await world.server?.stop()
    await world.feeds?.stop()
    await world.database?.close()
  })
  world.account = async (role, membership = 'active') => {
    const username = `console-${role}-${++serial}`
    const password = `a long password ${serial} for the console`
    const account = await createAccount(world.database.db, { username, password, role, membership })
    return { id: account.id, username, password }
  }
  return world
}

/** Collects the page's Content-Security-Policy violations and script errors, to assert there are none. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (message) => {
    if (
      message.type() === 'error' &&
      !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
    )
      problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  return problems
}

/** Signs in through the console's sign-in form and waits for the screen it leads to. */
export async function signIn(page: Page, base: string, who: Credentials, next = ''): Promise<void> {
  await page.goto(`${base}/console/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`)
  await page.getByLabel('Username').fill(who.username)
  await page.getByLabel('Password').fill(who.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'))
  await page.locator('#who').getByText(`Signed in as ${who.username}`).waitFor()
}

/** Opens a console screen and waits until it has drawn (its heading, and no "Loading…"). */
export async function open(page: Page, url: string, heading: string | RegExp): Promise<void> {
  await page.goto(url)
  await page.getByRole('heading', { level: 1, name: heading }).waitFor()
  await page.locator('#loading').waitFor({ state: 'detached' })
}

/** WCAG 2.1 A and AA rules and best practices: what the console's screens are held to. */
const CONSOLE_RULES = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
}

export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const serious = await seriousViolations(page, CONSOLE_RULES)
  expect({ screen, serious }).toEqual({ screen, serious: [] })
}

/**
 * Controls that something lies over (the status line, a panel): each control is scrolled to the top, the middle
 * and the bottom of the window in turn, and the element at its centre must be the control (or its label). The
 * status line holds a message meanwhile (one is put there if it is empty), as after any action.
 */
export async function coveredControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const status = document.getElementById('status')
    let planted: HTMLElement | null = null
    if (status && status.childElementCount === 0) {
      planted = document.createElement('p')
      planted.className = 'message info'
      planted.textContent =
        'A status message long enough to wrap onto a second line on a narrow screen, as after an action.'
      status.append(planted)
    }
    const covered = new Set<string>()
    for (const el of document.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href], summary')) {
      const style = getComputedStyle(el)
      if (style.display === 'none' || style.visibility === 'hidden' || el.getClientRects().length === 0) continue
      if (el.classList.contains('skip')) continue // off-screen until focused, by design
      for (const block of ['start', 'center', 'end'] as const) {
        el.scrollIntoView({ block, inline: 'nearest' })
        const box = el.getClientRects()[0] // a link that wraps: the centre of its first line, not of the box around both
        if (!box || box.width === 0 || box.height === 0) continue
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
        const label = el.id ? document.querySelector(`label[for="${el.id}"]`) : null
        if (hit && !el.contains(hit) && hit !== label && !label?.contains(hit)) {
          covered.add(
            `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('aria-label') || el.id).trim().slice(0, 40)}" under ${hit.tagName.toLowerCase()}.${hit.className}`,
          )
        }
      }
    }
    planted?.remove()
    window.scrollTo(0, 0)
    return [...covered]
  })
}
