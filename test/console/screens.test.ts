/**
 * Every console screen, in Chromium at 1280 and 390 px: it draws under its strict CSP with no
 * script error or policy violation, axe-core finds no serious or critical violation, and a
 * screenshot goes to artifacts/screenshots. The data on screen comes through /api as always: a
 * source, a job run, a brief, a contradiction and its gaps, a member with a key.
 */
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { insertBrief } from '../../src/pipeline/briefs/store'
import { haveBrowser, noteMissingBrowser, screenshot, useBrowser } from '../support/browser'
import { insertClaim, insertPapers, paperRow } from '../support/fixtures'
import { coveredControls, expectAccessible, open, signIn, useConsole, watchProblems, type Credentials } from './support'
import { CONSOLE_CSP } from '../../src/modules/console/shell'

noteMissingBrowser('console screens')

const FEED = `<?xml version="1.0"?><rss version="2.0"><channel><title>Aging news</title>
  <item><title>Rapamycin and lifespan</title><link>https://news.test/rapamycin</link><guid>n2</guid>
    <description>Rapamycin extended median lifespan in male and female mice.</description></item></channel></rss>`

describe.skipIf(!haveBrowser)('every console screen', () => {
  const world = useConsole(() => FEED)
  const browser = useBrowser()
  let briefId = 0
  let memberId = 0

  /** Opposing claims on one subject and object: one contradiction group once the intelligence job runs. */
  async function plantContradiction() {
    const [up, down] = await insertPapers(world.database.db, [
      paperRow({ title: 'Taurine extends lifespan in mice' }),
      paperRow({ title: 'Taurine shortens lifespan in mice' }),
    ])
    await insertClaim(world.database.db, {
      paperId: up!.id!,
      subjectText: 'taurine',
      relation: 'extends_lifespan',
      direction: 'increase',
    })
    await insertClaim(world.database.db, {
      paperId: down!.id!,
      subjectText: 'taurine',
      relation: 'shortens_lifespan',
      direction: 'decrease',
      magnitude: '8%',
    })
  }

  async function prepare(page: Page) {
    const call = async (method: 'post' | 'patch', path: string, data: unknown) => {
      const response = await page.request[method](`${world.base}${path}`, { data })
      expect(response.status()).toBeLessThan(300)
      return (await response.json()).data
    }
    await call('post', '/api/sources', { name: 'Aging news', url: `${world.feeds.url}/feed.xml`, tags: ['news'] })
    await call('post', '/api/scrape', {})
    await plantContradiction()
    await call('post', '/api/intelligence/refresh', {})
    const member = await call('post', '/api/accounts', {
      username: 'member-screens',
      password: 'a member password here',
      role: 'member',
    })
    memberId = member.id
    await call('post', `/api/accounts/${member.id}/keys`, { label: 'research notebook' })
    const brief = await insertBrief(world.database.db, {
      kind: 'tag_based',
      title: 'Taurine and lifespan: a mixed picture',
      content: 'x',
      model: 'geroscope-builtin-1',
      summary: [
        {
          text: 'One paper finds taurine extends lifespan in mice; another finds it shortens it.',
          citations: ['P1', 'P2'],
        },
      ],
      sections: [{ heading: 'Lifespan', statements: [{ text: 'The two mouse studies disagree.', citations: ['P1'] }] }],
      windowStart: '2026-10-01',
      windowEnd: '2026-10-30',
      filters: { topics: ['mtor-rapamycin'], entities: [], source_tags: [] },
      counts: { statements: 2 },
      citations: [
        {
          ref: 'P1',
          type: 'paper',
          paper_id: 'MED-1',
          article_id: null,
          title: 'Taurine extends lifespan in mice',
          source: 'Aging Cell',
          date: '2026-10-01',
          url: 'https://doi.org/10.1000/t1',
          site_url: null,
        },
        {
          ref: 'P2',
          type: 'paper',
          paper_id: 'MED-2',
          article_id: null,
          title: 'Taurine shortens lifespan in mice',
          source: 'Aging Cell',
          date: '2026-10-01',
          url: 'https://doi.org/10.1000/t2',
          site_url: null,
        },
      ],
    } as never)
    briefId = brief.id
  }

  const screens = (): [string, string, string | RegExp][] => [
    ['overview', '/console', 'Overview'],
    ['sources', '/console/sources', 'Sources'],
    ['jobs', '/console/jobs', 'Jobs'],
    ['briefs', '/console/briefs', 'Briefs'],
    ['brief', `/console/briefs/${briefId}`, 'Taurine and lifespan: a mixed picture'],
    ['contradictions', '/console/contradictions', 'Contradictions'],
    ['gaps', '/console/gaps', 'Knowledge gaps'],
    ['prompts', '/console/prompts', 'Prompts'],
    ['prompt', '/console/prompts/judge', /^Prompt: /],
    ['accounts', '/console/accounts', 'Accounts'],
    ['account', `/console/accounts/${memberId}`, 'Account member-screens'],
    ['keys', '/console/keys', 'My API keys'],
    ['password', '/console/password', 'Change your password'],
    ['review', '/console/review', 'Review'],
  ]

  /** The topic and entity filters go to the API's query and back into the page's address. */
  async function filtersNarrowContradictions(page: Page) {
    await page.getByLabel('Topic').selectOption('senescence')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.getByText('No contradictions match.').waitFor()
    expect(new URL(page.url()).search).toBe('?topic=senescence&entity=')
    await page.getByLabel('Topic').selectOption('mtor-rapamycin')
    await page.getByLabel('Entity').fill('intervention:CHEBI:9168')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.getByText('No contradictions match.').waitFor() // the claims name no resolved entity
    await page.getByLabel('Entity').fill('')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.getByRole('heading', { level: 2, name: /taurine/ }).waitFor()
    await page.getByLabel('Entity').fill('not-an-entity')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page
      .getByRole('alert')
      .getByText(/entity must be type:key/)
      .waitFor() // the API's own message, shown
    await open(page, `${world.base}/console/contradictions`, 'Contradictions')
  }

  for (const width of [1280, 390]) {
    test(`at ${width} px: accessible, under the CSP, with a screenshot each`, async () => {
      const page = await browser.page(width)
      const problems = watchProblems(page)
      const signInPage = await page.goto(`${world.base}/console/sign-in`)
      expect(signInPage!.headers()['content-security-policy']).toBe(CONSOLE_CSP)
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
      await expectAccessible(page, 'sign-in')
      await screenshot(page, `console-sign-in-${width}`)

      const operator: Credentials = await world.account('admin') // one per width: each has its own allowance of 100 a minute
      await signIn(page, world.base, operator)
      if (width === 1280) await prepare(page)
      for (const [name, path, heading] of screens()) {
        await open(page, `${world.base}${path}`, heading)
        if (name === 'contradictions') {
          await page.getByRole('heading', { level: 2, name: /taurine/ }).waitFor()
          if (width === 1280) await filtersNarrowContradictions(page)
        }
        if (name === 'sources') await page.getByRole('row', { name: /Aging news/ }).waitFor()
        expect(await page.locator('[role="alert"]').count()).toBe(0)
        expect({ name, covered: await coveredControls(page) }).toEqual({ name, covered: [] }) // the status line included
        await expectAccessible(page, name)
        if (width === 390)
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390) // no sideways scrolling of the page
        await screenshot(page, `console-${name}-${width}`)
      }
      expect(problems).toEqual([])
    })
  }
})
