/**
 * Filtered /papers pages over more papers than a window reads (src/queries/windowed-page.ts): a filter that
 * many papers pass fills its page from the newest thousand, one that fewer pass from the newest twenty
 * thousand, and a rare one from every paper it passes, sorted. Whichever way a page is read, it holds the
 * newest matches (indexed_date, then id), and the pages join up, in full answers and in `fields=` answers.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { useTestApp } from '../../support/app'
import { insertPapers, paperRow } from '../../support/fixtures'
import { getter, walk } from '../../support/fixtures-knowledge'

const api = useTestApp()
const get = getter({ handle: (request) => api.app.handle(request) }, () => api.key)

const PAPERS = 2_500
const RARE = [5, 1_200, 2_490] // "zzrare" in the title of three papers, old and new
const KLOTHO = (n: number) => n % 40 === 0 // one in 40: 25 of the newest thousand
const SENESCENCE = (n: number) => n % 7 === 0 // the topic of one in seven

// Paper n is indexed on day n / 30 after the first, so about thirty share each date; ids do not follow n's order.
const day = (n: number) => new Date(Date.UTC(2026, 6, 1) + Math.floor(n / 30) * 86_400_000).toISOString().slice(0, 10)
const id = (n: number) => `MED-${70_000_000 + ((n * 7_919) % 100_000)}`
const numbers = Array.from({ length: PAPERS }, (_, i) => i + 1)
const newestFirst = (wanted: (n: number) => boolean) =>
  numbers
    .filter(wanted)
    .sort((a, b) => (day(a) === day(b) ? (id(a) < id(b) ? -1 : 1) : day(a) < day(b) ? 1 : -1))
    .map(id)

beforeAll(async () => {
  await insertPapers(
    api.database.db,
    numbers.map((n) =>
      paperRow({
        id: id(n),
        indexedDate: day(n),
        doi: null,
        abstract: `Paper ${n}.`,
        title: `${RARE.includes(n) ? 'zzrare ' : ''}${KLOTHO(n) ? 'klotho ' : ''}aging study ${n}`,
        topic: SENESCENCE(n) ? 'senescence' : 'other',
      }),
    ),
  )
  await api.database.db.execute(sql`analyze papers`)
})

const paged = async (path: string) =>
  (await walk(get, path)).flatMap((page: { data: { id: string }[] }) => page.data.map((p) => p.id))

describe('GET /api/v1/papers filtered over more papers than a window', () => {
  test('a filter most papers pass: every page from the newest papers', async () => {
    expect(await paged('/api/v1/papers?limit=100')).toEqual(newestFirst(() => true))
    expect(await paged('/api/v1/papers?limit=100&min_relevance=0')).toEqual(newestFirst(() => true))
  })

  test('a topic one paper in seven has, at several page sizes', async () => {
    expect((await get('/api/v1/papers?topic=senescence&limit=1')).body.data.map((p: { id: string }) => p.id)).toEqual(
      newestFirst(SENESCENCE).slice(0, 1),
    )
    for (const limit of [25, 100]) {
      expect(await paged(`/api/v1/papers?topic=senescence&limit=${limit}`)).toEqual(newestFirst(SENESCENCE))
    }
  })

  test('a word one paper in forty holds, at several page sizes', async () => {
    for (const limit of [1, 25, 100]) {
      expect(await paged(`/api/v1/papers?q=klotho&limit=${limit}`)).toEqual(newestFirst(KLOTHO))
    }
  })

  test('a rare word, and a word no paper holds', async () => {
    for (const limit of [1, 2, 25])
      expect(await paged(`/api/v1/papers?q=zzrare&limit=${limit}`)).toEqual(newestFirst((n) => RARE.includes(n)))
    expect(await paged('/api/v1/papers?q=zzqxv')).toEqual([])
  })

  test('fields= pages read the same papers', async () => {
    for (const [query, wanted] of [
      ['q=klotho', KLOTHO],
      ['q=zzrare', (n: number) => RARE.includes(n)],
      ['topic=senescence', SENESCENCE],
    ] as const) {
      for (const limit of [5, 25, 100]) {
        expect(await paged(`/api/v1/papers?${query}&fields=id,title&limit=${limit}`)).toEqual(newestFirst(wanted))
      }
    }
  })
})
