/**
 * The operator's day in the console, in Chromium: sign in, add a source pointing at a local feed,
 * scrape it, analyse, generate a brief and read it with its citations, edit a prompt, sign out.
 * Hostile feed and source text shows as text: no script runs and no javascript: link is made.
 */
import { describe, expect, test } from 'bun:test'
import { insertBrief } from '../../src/pipeline/briefs/store'
import { haveBrowser, noteMissingBrowser, screenshot, useBrowser } from '../support/browser'
import { open, signIn, useConsole, watchProblems } from './support'

noteMissingBrowser('operator console')

const HOSTILE_TITLE =
  '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">Senolytics in old mice'
const FEED = `<?xml version="1.0"?><rss version="2.0"><channel><title>Aging news</title>
  <item><title><![CDATA[${HOSTILE_TITLE}]]></title><link>https://news.test/senolytics</link><guid>n1</guid>
    <description>Dasatinib plus quercetin reduced senescent cell burden and extended healthspan in aged mice.</description></item>
  <item><title>Rapamycin and lifespan</title><link>https://news.test/rapamycin</link><guid>n2</guid>
    <description>Rapamycin extended median lifespan in male and female mice.</description></item>
  <item><title>A link that is a script</title><link>javascript:alert(document.cookie)</link>
    <description>Metformin and aging in mice.</description></item>
</channel></rss>`

describe.skipIf(!haveBrowser)('the operator console', () => {
  const world = useConsole(() => FEED)
  const browser = useBrowser()

  test('sign in, add a source, scrape it, analyse, generate a brief and read it with its citations, sign out', async () => {
    const operator = await world.account('admin')
    const page = await browser.page(1280)
    const problems = watchProblems(page)

    await page.goto(`${world.base}/console/sources`)
    await page.waitForURL(/\/console\/sign-in\?next=%2Fconsole%2Fsources$/) // no session: to the sign-in screen, and back after
    await signIn(page, world.base, operator, '/console/sources')
    expect(new URL(page.url()).pathname).toBe('/console/sources')

    await page.getByLabel('Name').fill('<b>Aging</b> news')
    await page.getByLabel('Feed URL').fill(`${world.feeds.url}/feed.xml`)
    await page.getByLabel('Tags').fill('news, mice')
    await page.getByRole('button', { name: 'Add source' }).click()
    const row = page.getByRole('row', { name: /Aging<\/b> news/ })
    await row.waitFor()
    expect(await row.innerText()).toContain('never')
    await page.getByRole('button', { name: 'Scrape now: <b>Aging</b> news' }).click()
    await page.getByRole('heading', { name: /^Scrape run \d+/ }).waitFor()
    const outcome = page.getByRole('region', { name: 'Outcome per source' })
    expect(await outcome.innerText()).toMatch(/<b>Aging<\/b> news\s+3\s+2\s/) // 3 items, 2 added (the javascript: link refused)
    await page.getByRole('row', { name: /Aging<\/b> news.*\bok\b/ }).waitFor()

    await open(page, `${world.base}/console/jobs`, 'Jobs')
    await page.getByRole('button', { name: 'Run analysis' }).click()
    // Followed as it goes (test/console/job-progress.test.ts follows and cancels a slow scrape), then what it did.
    const analysis = page.locator('.progress-card').first()
    await analysis.getByRole('heading', { name: /^Analysis run \d+$/ }).waitFor()
    await analysis.locator('.badge.ok').waitFor()
    expect(await analysis.innerText()).toMatch(/articles\s+2/)
    const runs = await page.getByRole('region', { name: 'Job runs, newest first' }).innerText()
    expect(runs).toContain('scrape')
    await screenshot(page, 'console-jobs-1280')

    await open(page, `${world.base}/console/briefs`, 'Briefs')
    await page.getByRole('button', { name: 'Generate brief', exact: true }).click()
    await page.waitForURL(/\/console\/briefs\/\d+$/)
    await page.getByRole('heading', { level: 2, name: 'Citations' }).waitFor()
    const citations = page.locator('ol.citations > li')
    expect(await citations.count()).toBeGreaterThan(0)
    const firstRef = page.locator('ul.statements a.ref').first()
    const target = await firstRef.getAttribute('href')
    expect(target).toMatch(/^#cite-[AP]\d+$/)
    expect(await page.locator(target!).count()).toBe(1) // every cited ref is in the citation list
    const text = await page.locator('main').innerText()
    expect(text).toContain('<b>Aging</b> news') // the source's name, markup and all, shown as the text it is
    expect(text).toContain('Senolytics in old mice') // the scraper keeps a title's text, not its tags
    expect(text).not.toContain('[object')
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
    expect(await page.locator('main script, main img').count()).toBe(0)
    await screenshot(page, 'console-brief-1280')

    await open(page, `${world.base}/console/prompts/article`, /^Prompt: /)
    await page.getByLabel('Prompt text').fill('Summarise the article for aging researchers; answer in JSON.')
    await page.getByRole('button', { name: 'Save new version' }).click()
    await page.getByText('Saved as version 2.').waitFor()
    expect(
      await page.locator('ul.versions > li').evaluateAll((items) => items.map((li) => li.getAttribute('data-version'))),
    ).toEqual(['2', '1'])

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(/\/console\/sign-in$/)
    const after = await page.request.get(`${world.base}/api/auth/me`)
    expect(after.status()).toBe(401)
    expect(problems).toEqual([])
  })

  test('a tag-based brief, disabling and deleting a source, accounts with a pro key and a membership', async () => {
    const operator = await world.account('admin')
    const page = await browser.page(1280)
    const problems = watchProblems(page)
    await signIn(page, world.base, operator, '/console/briefs')

    await page.locator('#t-source-tags').fill('news')
    await page.getByRole('button', { name: 'Generate tag-based brief' }).click()
    await page.waitForURL(/\/console\/briefs\/\d+$/)
    expect(await page.locator('main .meta').first().innerText()).toMatch(
      /^Tag-based brief for .* \(source tags: news\)/,
    )
    expect(await page.locator('ol.citations > li').count()).toBeGreaterThan(0)
    await open(page, `${world.base}/console/briefs`, 'Briefs')
    await page.locator('#t-source-tags').fill('')
    await page.getByRole('button', { name: 'Generate tag-based brief' }).click()
    await page
      .getByRole('alert')
      .getByText(/at least one of topics, entities, source_tags|give at least one/i)
      .waitFor() // the API's refusal, shown

    await open(page, `${world.base}/console/sources`, 'Sources')
    await page.getByRole('button', { name: 'Disable <b>Aging</b> news' }).click()
    await page.getByRole('row', { name: /Aging<\/b> news.*\bno\b/ }).waitFor()
    await page.getByRole('button', { name: 'Delete <b>Aging</b> news' }).click()
    await page.getByRole('button', { name: 'Confirm: delete <b>Aging</b> news' }).click()
    await page.getByText(/<b>Aging<\/b> news deleted, with 2 articles\./).waitFor()
    await page.getByRole('region', { name: 'RSS sources' }).getByText('None yet.').waitFor()

    await open(page, `${world.base}/console/accounts`, 'Accounts')
    await page.getByLabel('Username').fill('reader-one')
    await page.getByLabel('Password').fill('a password for reader one')
    await page.getByLabel('Role').selectOption('member')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.getByText('Account reader-one created.').waitFor()
    await page.getByRole('link', { name: 'Keys of reader-one' }).click()
    await page.getByRole('heading', { level: 1, name: 'Account reader-one' }).waitFor()
    await page.getByLabel('Label').fill('lab server')
    await page.getByRole('button', { name: 'Create key' }).click()
    const key = await page.getByLabel('The key').inputValue()
    expect(key).toMatch(/^grk_/)
    await page.getByRole('region', { name: 'Keys of reader-one' }).getByText('lab server').waitFor()
    expect(await page.getByRole('region', { name: 'Keys of reader-one' }).innerText()).toContain('pro')
    const v1 = () =>
      fetch(`${world.base}/api/v1/papers?min_relevance=0`, { headers: { authorization: `Bearer ${key}` } })
    expect((await v1()).status).toBe(200)
    await page.getByLabel('Membership of reader-one', { exact: true }).selectOption('lapsed')
    await page.getByRole('button', { name: 'Set the membership of reader-one' }).click()
    await page.getByText('reader-one: membership lapsed.').waitFor()
    const account = await (await page.request.get(`${world.base}/api/accounts?membership=lapsed`)).json()
    expect(account.data.map((a: { username: string }) => a.username)).toEqual(['reader-one'])
    expect(problems).toEqual([])
  })

  test('a stored brief with hostile citations: titles stay text, javascript: URLs get no link', async () => {
    const brief = await insertBrief(world.database.db, {
      kind: 'comprehensive',
      title: '<script>window.__pwned = 3</script>Weekly brief',
      content: 'x',
      model: 'test',
      summary: [{ text: '<img src=x onerror="window.__pwned = 4">Senolytics help.', citations: ['P1'] }],
      sections: [],
      windowStart: '2026-11-01',
      windowEnd: '2026-11-07',
      counts: { statements: 1 },
      citations: [
        {
          ref: 'P1',
          type: 'paper',
          paper_id: null,
          article_id: null,
          title: '<a href="javascript:alert(1)">click</a>',
          source: 'Feed',
          date: null,
          url: 'javascript:alert(1)',
          site_url: 'javascript:alert(2)',
        },
      ],
    } as never)
    const operator = await world.account('admin')
    const page = await browser.page(390)
    const problems = watchProblems(page)
    await signIn(page, world.base, operator, `/console/briefs/${brief.id}`)
    await page.getByRole('heading', { level: 1, name: '<script>window.__pwned = 3</script>Weekly brief' }).waitFor()
    expect(await page.locator('main').innerText()).toContain('<a href="javascript:alert(1)">click</a>')
    const hrefs = await page.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''))
    expect(hrefs.filter((href) => /^\s*javascript:/i.test(href))).toEqual([])
    expect(await page.locator('main script, main img').count()).toBe(0)
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
    expect(problems).toEqual([])
  })
})
