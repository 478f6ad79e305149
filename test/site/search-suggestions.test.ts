/**
 * The site's search page knows entity names as /search does: /search?q=p16 lists the
 * papers that say CDKN2A and suggests the entity ("Did you mean the gene CDKN2A?"), linked to its page.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { entities } from '../../src/db/schema'
import { refreshEntityCounts } from '../../src/jobs/refresh-entity-counts'
import { entityAliases } from '../../src/lexicon/aliases'
import { req, useTestApp } from '../support/app'
import { insertEntity, insertPapers, linkEntity, paperRow } from '../support/fixtures'

const api = useTestApp()

async function entity(type: string, key: string, name: string, paperId: string) {
  const row = await insertEntity(api.database.db, type, key, name)
  await api.database.db
    .update(entities)
    .set({ aliases: entityAliases(type, key, name) })
    .where(eq(entities.id, row.id))
  await linkEntity(api.database.db, paperId, '2026-10-02', row.id, 'studied')
}

beforeAll(async () => {
  await insertPapers(api.database.db, [
    paperRow({ id: 'MED-11', title: 'CDKN2A in ageing fibroblasts', abstract: 'Senescent fibroblasts accumulate.' }),
    paperRow({ id: 'MED-12', title: 'Sirolimus in old mice', abstract: 'Lifespan rose.' }),
    paperRow({ id: 'MED-13', title: 'Klotho in serum', abstract: 'Measured in a cohort.' }),
  ])
  await entity('gene', 'NCBIGene:1029', 'CDKN2A', 'MED-11')
  await entity('intervention', 'CHEBI:9168', 'rapamycin', 'MED-12')
  await refreshEntityCounts(api.database.db)
})

const page = async (q: string) => {
  const response = await api.app.handle(req(`/search?q=${encodeURIComponent(q)}`))
  expect(response.status).toBe(200)
  return response.text()
}

describe('the search page', () => {
  test('/search?q=p16 lists the paper that says CDKN2A and suggests the gene', async () => {
    const html = await page('p16')
    expect(html).toContain('CDKN2A in ageing fibroblasts')
    expect(html).toContain(
      '<p class="suggest">Did you mean the gene <a href="/entities/gene/NCBIGene%3A1029">CDKN2A</a>?</p>',
    )
  })

  test('/search?q=sirolimus suggests the intervention rapamycin', async () => {
    const html = await page('sirolimus')
    expect(html).toContain('Sirolimus in old mice')
    expect(html).toContain('Did you mean the intervention <a href="/entities/intervention/CHEBI%3A9168">rapamycin</a>?')
  })

  test('two names, two suggestions (most-studied first, then by type)', async () => {
    expect(await page('p16 OR sirolimus')).toContain(
      'Did you mean the gene <a href="/entities/gene/NCBIGene%3A1029">CDKN2A</a> or the intervention <a href="/entities/intervention/CHEBI%3A9168">rapamycin</a>?',
    )
  })

  test('a query that names no entity suggests nothing', async () => {
    const html = await page('klotho')
    expect(html).toContain('Klotho in serum')
    expect(html).not.toContain('class="suggest"')
  })
})
