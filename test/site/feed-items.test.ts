/**
 * A story feed's item uses RSS 2.0's elements for what RSS 2.0 means by them: no <source> (the RSS channel an
 * item was taken from) and no <comments> (a page of comments on the item), which named the paper before; the paper
 * the story is drawn from is dc:source (its DOI, or its record without one) and its page here dc:relation.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import Parser from 'rss-parser'
import { req, useTestApp } from '../support/app'
import { insertPapers, insertStory, paperRow } from '../support/fixtures'

const api = useTestApp()
const EPMC = 'https://europepmc.org/article/MED/22'
const SITE = 'https://geroscope.test'
const DOI = 'https://doi.org/10.1000/feed.21'
beforeAll(async () => {
  await insertPapers(api.database.db, [
    paperRow({ id: 'MED-21', doi: '10.1000/feed.21', topic: 'senescence', indexedDate: '2026-10-02' }),
    paperRow({ id: 'MED-22', doi: null, url: EPMC, topic: 'senescence', indexedDate: '2026-10-01' }),
  ])
  await insertStory(api.database.db, 'MED-21', { publishedAt: new Date('2026-10-03T08:00:00Z') })
  await insertStory(api.database.db, 'MED-22', { publishedAt: new Date('2026-10-02T08:00:00Z') })
})

type Item = { source?: string; relation?: string; comments?: string }
const parser = new Parser<object, Item>({
  customFields: { item: [['dc:source', 'source'], ['dc:relation', 'relation'], 'comments'] as never },
})

describe('a story feed item', () => {
  for (const path of ['/feed.xml', '/topics/senescence/feed.xml']) {
    test(`${path}: names the paper with Dublin Core, not with <source> or <comments>`, async () => {
      const xml = await (await api.app.handle(req(path))).text()
      expect(xml).not.toContain('<source')
      expect(xml).not.toContain('<comments')
      const feed = await parser.parseString(xml)
      const items = feed.items.map(({ link, source, relation, comments }) => ({ link, source, relation, comments }))
      expect(items).toEqual([
        { link: `${SITE}/stories/MED-21`, source: DOI, relation: `${SITE}/papers/MED-21`, comments: undefined },
        { link: `${SITE}/stories/MED-22`, source: EPMC, relation: `${SITE}/papers/MED-22`, comments: undefined },
      ])
    })
  }
})
