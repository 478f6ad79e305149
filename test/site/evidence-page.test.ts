/** The site's page per question (/evidence?subject=…&object=…), linked from entity pages: what it shows, escaped, and how it fails. */
import { beforeAll, describe, expect, test } from 'bun:test'
import { req, useTestApp } from '../support/app'
import { insertClaim, insertEntity, insertPapers, paperRow } from '../support/fixtures'
import { seedSite } from './corpus'

const api = useTestApp()
beforeAll(async () => {
  const db = api.database.db
  const { rapamycin } = await seedSite(db)
  await insertPapers(db, [
    paperRow({ id: 'MED-3', title: 'Rapamycin in old dogs', studyType: 'human_trial', publishedDate: '2024-01-01' }),
  ])
  await insertClaim(db, {
    paperId: 'MED-3',
    subjectEntityId: rapamycin.id,
    objectText: 'lifespan',
    organism: 'Canis familiaris',
    direction: 'no_change',
  })
  await insertClaim(db, { paperId: 'MED-1', subjectEntityId: rapamycin.id, objectText: 'median lifespan' })
  await insertEntity(db, 'gene', '<b>X</b>', 'Gene <i>X</i>')
})

async function page(path: string) {
  const response = await api.app.handle(req(path))
  return { status: response.status, headers: response.headers, html: await response.text() }
}

describe('the evidence page', () => {
  test('an entity page links to what the evidence says about it and lifespan', async () => {
    const { html } = await page('/entities/intervention/rapamycin')
    expect(html).toContain(
      '<a href="/evidence?subject=rapamycin&amp;object=lifespan">What the evidence says about Rapamycin and lifespan</a>',
    )
  })

  test('groups the claims by organism and direction, papers linked, strongest first, titles escaped', async () => {
    const { status, html, headers } = await page('/evidence?subject=rapamycin&object=lifespan')
    expect(status).toBe(200)
    expect(headers.get('content-type')).toContain('text/html')
    expect(html).toContain('<title>What the evidence says about Rapamycin and lifespan · Geroscope</title>')
    expect(html).toContain(
      '<h1>What the evidence says about <a href="/entities/intervention/rapamycin">Rapamycin</a> and lifespan</h1>',
    )
    expect(html).toContain('3 claims extracted from papers')
    // Two claims from one paper in mice first, then one in dogs.
    const mice = html.indexOf('In Mus musculus: an increase')
    const dogs = html.indexOf('In Canis familiaris: no change')
    expect(mice).toBeGreaterThan(0)
    expect(dogs).toBeGreaterThan(mice)
    expect(html).toContain('2 claims from 1 paper')
    expect(html).toContain(
      '<a href="https://geroscope.test/papers/MED-1">Rapamycin &lt;b&gt;extends&lt;/b&gt; lifespan in mice</a>',
    )
    expect(html).not.toContain('<b>extends</b>')
    expect(html).toContain(
      '<a href="https://geroscope.test/papers/MED-3">Rapamycin in old dogs</a> <span class="meta">Human trial',
    )
  })

  test('a question without claims says so, with the names escaped', async () => {
    const { status, html } = await page(
      `/evidence?subject=${encodeURIComponent('<b>X</b>')}&object=${encodeURIComponent('<script>x</script>')}`,
    )
    expect(status).toBe(200)
    expect(html).toContain('No claims about Gene &lt;i&gt;X&lt;/i&gt; and &lt;script&gt;x&lt;/script&gt; yet.')
    expect(html).not.toContain('<script>x')
  })

  test('an unknown subject is a 404 page naming it; missing or bad parameters a 400 page', async () => {
    const unknown = await page('/evidence?subject=%3Cscript%3Eunobtainium&object=lifespan')
    expect(unknown.status).toBe(404)
    expect(unknown.html).toContain('Page not found')
    expect(unknown.html).toContain('&quot;&lt;script&gt;unobtainium&quot;')
    expect(unknown.html).not.toContain('<script>unobtainium')
    for (const [path, message] of [
      ['/evidence?subject=rapamycin', 'subject and object are required'],
      ['/evidence?subject=rapamycin&object=', 'object must not be empty'],
      ['/evidence?subject=rapamycin&object=lifespan&organism=unicorn', 'is not an organism the service knows'],
      ['/evidence?subject=rapamycin&object=lifespan&study_type=anecdote', 'study_type has unknown value'],
    ]) {
      const bad = await page(path)
      expect({ path, status: bad.status }).toEqual({ path, status: 400 })
      expect(bad.headers.get('content-type')).toContain('text/html')
      expect(bad.html).toContain(message)
    }
  })
})
