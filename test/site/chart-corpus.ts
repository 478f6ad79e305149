/**
 * A corpus for the charts, dated from today so it always falls in the charts' last 24 months: papers
 * of three topics and several study types spread over the months (some tangential to aging, which
 * the charts leave out), and a gene whose papers span years with claims in two organisms and every direction.
 */
import type { Db } from '../../src/db/client'
import { lastMonths } from '../../src/modules/site/charts/site-charts'
import { insertClaim, insertEntity, insertPapers, linkEntity, paperRow } from '../support/fixtures'

const TOPICS = ['senescence', 'epigenetic-clocks', 'mtor-rapamycin'] as const
const STUDY_TYPES = ['animal', 'human_trial', 'cells', 'review'] as const

export async function seedCharts(db: Db) {
  const months = lastMonths(new Date())
  const rows = Array.from({ length: 60 }, (_, i) =>
    paperRow({
      id: `MED-${7000 + i}`,
      topic: TOPICS[i % 3],
      studyType: STUDY_TYPES[i % 4],
      relevance: i % 5 === 4 ? 1 : 2.6, // every fifth tangential: not about aging biology
      indexedDate: `${months[(i * 7) % 24]}-01`,
      publishedDate: i % 10 === 9 ? null : `${2019 + (i % 4) * 2}-03-01`,
      title: `Chart paper ${i} on p16 & senescence`,
    }),
  )
  await insertPapers(db, rows)
  const gene = await insertEntity(db, 'gene', 'CDKN2A', 'CDKN2A', { ncbigene: '1029' })
  for (const r of rows.slice(0, 20)) await linkEntity(db, r.id!, r.indexedDate!, gene.id, 'subject')
  const claims: [string | null, string | null][] = [
    ['Mus musculus', 'increase'],
    ['Mus musculus', 'increase'],
    ['Mus musculus', 'decrease'],
    ['Homo sapiens', 'no_change'],
    ['Homo sapiens', 'mixed'],
    [null, null],
  ]
  for (const [i, [organism, direction]] of claims.entries()) {
    await insertClaim(db, {
      paperId: rows[i].id!,
      subjectText: 'p16',
      subjectEntityId: gene.id,
      relation: 'increases',
      objectText: 'senescence',
      organism,
      direction,
    })
  }
  return { gene, rows }
}
