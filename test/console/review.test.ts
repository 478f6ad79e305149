/**
 * The review screen in Chromium: an operator works through the queue with the keyboard alone —
 * a accepts, c corrects (relevance, study type, topic, newsworthiness, note), n and j go on — and
 * each decision is the editor's judgement in the database, with its note in the history.
 */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { judgementVersions, papers } from '../../src/db/schema'
import { haveBrowser, noteMissingBrowser, screenshot, useBrowser } from '../support/browser'
import { insertPapers, paperRow } from '../support/fixtures'
import { expectAccessible, open, signIn, useConsole, watchProblems } from './support'

noteMissingBrowser('console review screen')

describe.skipIf(!haveBrowser)('the review screen', () => {
  const world = useConsole(() => '<rss version="2.0"><channel></channel></rss>')
  const browser = useBrowser()

  test('accept with a, correct with c, skip with n and j, until the queue is empty', async () => {
    await insertPapers(world.database.db, [
      paperRow({
        id: 'MED-7100001',
        title: 'Frailty index predicts surgical outcome',
        relevanceConfidence: 0.1,
        topic: 'other',
        studyType: 'human_observational',
      }),
      paperRow({ id: 'MED-7100002', title: 'Rapamycin extends lifespan in marmosets', relevanceConfidence: 0.2 }),
      paperRow({
        id: 'MED-7100003',
        title: 'A <script>window.__pwned = 1</script> cohort of centenarians',
        relevanceConfidence: 0.3,
        newsworthiness: null,
      }),
      paperRow({ id: 'MED-7100004', title: 'Metformin in type 2 diabetes', relevanceConfidence: 0.4 }),
    ])
    const operator = await world.account('admin')
    const page = await browser.page(1280)
    const problems = watchProblems(page)
    await signIn(page, world.base, operator, '/console/review')
    await open(page, `${world.base}/console/review`, 'Review')
    const title = page.locator('#review-title')
    await title.getByText('Frailty index predicts surgical outcome').waitFor()
    expect(await page.locator('#review-item').innerText()).toContain('Low confidence')
    await expectAccessible(page, 'review')
    await screenshot(page, 'console-review-1280')

    await page.keyboard.press('a') // accept the first as it is
    await title.getByText('Rapamycin extends lifespan in marmosets').waitFor()
    await page.getByText('Accepted: Frailty index predicts surgical outcome').waitFor()
    const model = async (id: string) => (await world.database.db.select().from(papers).where(eq(papers.id, id)))[0]
    expect(await model('MED-7100001')).toMatchObject({
      judgementModel: 'editor',
      relevance: 2.6,
      topic: 'other',
      studyType: 'human_observational',
      relevanceConfidence: 1,
    })

    await page.keyboard.press('n') // skip the second: nothing changes
    await title.getByText('A <script>window.__pwned = 1</script> cohort of centenarians').waitFor()
    expect((await model('MED-7100002')).judgementModel).toBe('geroscope-builtin-1')

    await page.keyboard.press('c') // correct the third
    const relevance = page.getByLabel('Relevance', { exact: true })
    await relevance.waitFor()
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('relevance')
    await relevance.fill('0.5')
    await page.keyboard.press('n') // typing in the form is not a key command
    expect(await relevance.inputValue()).toBe('0.5')
    await page.getByLabel('Study type', { exact: true }).last().selectOption('human_observational')
    await page.getByLabel('Topic', { exact: true }).last().selectOption('brain-aging')
    await page.getByLabel('Note').fill('Centenarian cohort: ageing biology only tangentially.')
    await page.getByRole('button', { name: 'Save correction' }).click()
    await title.getByText('Metformin in type 2 diabetes').waitFor()
    expect(await model('MED-7100003')).toMatchObject({
      judgementModel: 'editor',
      relevance: 0.5,
      studyType: 'human_observational',
      topic: 'brain-aging',
      newsworthiness: 0,
    })
    const versions = await world.database.db
      .select()
      .from(judgementVersions)
      .where(eq(judgementVersions.paperId, 'MED-7100003'))
    expect(versions.map((v) => [v.model, v.note, v.accountId])).toEqual([
      ['geroscope-builtin-1', null, null],
      ['editor', 'Centenarian cohort: ageing biology only tangentially.', operator.id],
    ])

    await page.keyboard.press('j') // past the last one
    await page.getByRole('heading', { level: 2, name: 'Nothing to review' }).waitFor()

    // Back to the queue: the accepted and corrected papers have left it, the skipped ones wait.
    await open(page, `${world.base}/console/review`, 'Review')
    await title.getByText('Rapamycin extends lifespan in marmosets').waitFor()
    await page.keyboard.press('j')
    await title.getByText('Metformin in type 2 diabetes').waitFor()
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
    expect(problems).toEqual([])
  })

  test('filters narrow the queue, and a member is told the screen is for operators', async () => {
    const operator = await world.account('admin')
    const page = await browser.page(390)
    await signIn(page, world.base, operator, '/console/review')
    await open(page, `${world.base}/console/review?topic=glp-1`, 'Review')
    await page.getByRole('heading', { level: 2, name: 'Nothing to review' }).waitFor()
    await page.getByLabel('Reason').selectOption('low_confidence')
    await page.getByLabel('Topic').selectOption('mtor-rapamycin')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.locator('#review-title').getByText('Rapamycin extends lifespan in marmosets').waitFor()
    expect(new URL(page.url()).search).toBe('?reason=low_confidence&topic=mtor-rapamycin&study_type=')
    await expectAccessible(page, 'review at 390 px')

    const member = await world.account('member')
    const memberPage = await browser.page(1280)
    await signIn(memberPage, world.base, member)
    await open(memberPage, `${world.base}/console/review`, 'For operators only')
    expect(await memberPage.locator('#review-item').count()).toBe(0)
  })
})
