/**
 * Filtered /stories pages over more stories than a window reads (src/queries/windowed-page.ts), as for papers
 * (test/v1/papers/papers-filter-windows.test.ts): a topic many stories' papers have fills its page from the newest
 * thousand, a rare pair of topic and study type from every story it passes, sorted. Either way a page holds the
 * newest matches (published_at, then paper_id), and the pages join up, in full answers and in `fields=` answers.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { useTestApp } from '../../support/app'
import { insertPapers, paperRow } from '../../support/fixtures'
import { getter, walk } from '../../support/fixtures-knowledge'

const api = useTestApp()
const get = getter({ handle: (request) => api.app.handle(request) }, () => api.key)

const STORIES = 2_500
const RARE_PAIR = [4, 1_300, 2_499] // brain aging in cells: three stories, old and new
const SENESCENCE = (n: number) => n % 7 === 0 && !RARE_PAIR.includes(n) // the topic of one story's paper in seven

// Story n is published n minutes after the first, several to a second at the end (ties broken by paper_id).
const id = (n: number) => `MED-${80_000_000 + ((n * 7_919) % 100_000)}`
const numbers = Array.from({ length: STORIES }, (_, i) => i + 1)
const minute = (n: number) => Math.min(n, 2_400)
const newestFirst = (wanted: (n: number) => boolean) =>
  numbers
    .filter(wanted)
    .sort((a, b) => (minute(a) === minute(b) ? (id(a) < id(b) ? -1 : 1) : minute(b) - minute(a)))
    .map(id)

beforeAll(async () => {
  await insertPapers(
    api.database.db,
    numbers.map((n) =>
      paperRow({
        id: id(n),
        doi: null,
        title: `story:${n}`,
        topic: RARE_PAIR.includes(n) ? 'brain-aging' : SENESCENCE(n) ? 'senescence' : 'other',
        studyType: RARE_PAIR.includes(n) ? 'cells' : 'animal',
      }),
    ),
  )
  await api.database.db.execute(sql`insert into stories (paper_id, headline, dek, body, why_it_matters, caveats, support, model, published_at)
    select id, 'Headline for ' || id, 'Dek.', 'Body.', 'Why.', 'Caveats.', 3, 'geroscope-builtin-1',
      timestamptz '2026-10-01 00:00:00+00' + least(split_part(title, ':', 2)::int, 2400) * interval '1 minute'
    from papers where id like 'MED-8%'`)
  await api.database.db.execute(sql`analyze stories`)
})

const paged = async (path: string) =>
  (await walk(get, path)).flatMap((page: { data: { paper_id?: string; paper?: { id: string } }[] }) =>
    page.data.map((s) => s.paper_id ?? s.paper!.id),
  )

describe('GET /api/v1/stories filtered over more stories than a window', () => {
  test('a topic one story in seven has, and every story, at several page sizes', async () => {
    for (const limit of [25, 100])
      expect(await paged(`/api/v1/stories?topic=senescence&limit=${limit}`)).toEqual(newestFirst(SENESCENCE))
    expect(await paged('/api/v1/stories?limit=100')).toEqual(newestFirst(() => true))
  })

  test('a rare pair of topic and study type', async () => {
    for (const limit of [1, 2, 25]) {
      expect(await paged(`/api/v1/stories?topic=brain-aging&study_type=cells&limit=${limit}`)).toEqual(
        newestFirst((n) => RARE_PAIR.includes(n)),
      )
    }
  })

  test('fields= pages read the same stories', async () => {
    for (const limit of [2, 25, 100]) {
      expect(
        await paged(`/api/v1/stories?topic=brain-aging&study_type=cells&fields=paper_id,headline&limit=${limit}`),
      ).toEqual(newestFirst((n) => RARE_PAIR.includes(n)))
    }
    expect(await paged('/api/v1/stories?topic=senescence&fields=paper_id&limit=100')).toEqual(newestFirst(SENESCENCE))
  })
})
