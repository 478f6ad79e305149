import { describe, expect, test } from 'bun:test'
import {
  mapRecord,
  normaliseDoi,
  normalisePublicationTypes,
  plainText,
  shortAuthors,
  type MappedPaper,
} from '../../src/pipeline/ingest/europepmc/mapping'
import type { EuropePmcRecord } from '../../src/pipeline/ingest/europepmc/record'
import { haveSharedFixtures, noteMissingFixtures, sharedFixtureJson } from '../support/shared-fixtures'

noteMissingFixtures('europepmc mapping')

const paperOf = (record: EuropePmcRecord): MappedPaper => {
  const result = mapRecord(record)
  if (!('paper' in result)) throw new Error(`skipped: ${result.skipped}`)
  return result.paper
}

const base: EuropePmcRecord = {
  id: '39172536',
  source: 'MED',
  pmid: '39172536',
  title: 'Rapamycin and lifespan',
  authorString: 'Smith A.',
  firstIndexDate: '2026-11-02',
  firstPublicationDate: '2026-11-20',
  journalInfo: { journal: { title: 'Aging Cell' } },
}

describe('mapRecord', () => {
  test('makes <source>-<number> ids: the PMID for MED, the number for PPR', () => {
    expect(paperOf(base).id).toBe('MED-39172536')
    expect(paperOf({ ...base, source: 'PPR', id: 'PPR841231', pmid: undefined }).id).toBe('PPR-841231')
  })

  test('lowercases DOIs, drops resolver prefixes and points url at the DOI, else at Europe PMC', () => {
    expect(paperOf({ ...base, doi: 'https://doi.org/10.1111/ACEL.14000' })).toMatchObject({
      doi: '10.1111/acel.14000',
      url: 'https://doi.org/10.1111/acel.14000',
    })
    expect(normaliseDoi('doi: 10.1000/X')).toBe('10.1000/x')
    expect(normaliseDoi('not a doi')).toBeNull()
    expect(paperOf(base)).toMatchObject({ doi: null, url: 'https://europepmc.org/article/MED/39172536' })
  })

  test('keeps the first three authors, then et al.', () => {
    expect(shortAuthors('Huang H, Li Y, Liu Y, Wang W, Chen S.')).toBe('Huang H, Li Y, Liu Y, et al.')
    expect(shortAuthors("Schoenfeld JD, Haas-Kogan DA, O'Neill AF.")).toBe("Schoenfeld JD, Haas-Kogan DA, O'Neill AF")
    expect(shortAuthors(undefined)).toBe('')
  })

  test('strips markup from abstracts and keeps section headings as words', () => {
    expect(
      plainText('<title>Abstract</title>  <p>Mice lived <italic>longer</italic> &amp; healthier (p&lt;0.05).</p>'),
    ).toBe('Mice lived longer & healthier (p<0.05).')
    expect(plainText('<h4>Background</h4><p>Aging.</p><sec><title>Methods</title><p>Mice.</p></sec>')).toBe(
      'Background\nAging.\nMethods: Mice.',
    )
    expect(plainText('')).toBeNull()
  })

  test('normalises publication types to one vocabulary, without duplicates', () => {
    expect(
      normalisePublicationTypes([
        "Research Support, Non-U.S. Gov't",
        'review-article',
        'Review',
        'Journal Article',
        'research-article',
      ]),
    ).toEqual(["Research Support, Non-U.S. Gov't", 'Review', 'Journal Article'])
    expect(paperOf({ ...base, pubType: 'journal article; review' }).publicationTypes).toEqual([
      'Journal Article',
      'Review',
    ])
  })

  test('marks preprints and names their server as the journal', () => {
    const p = paperOf({
      ...base,
      source: 'PPR',
      id: 'PPR1',
      pmid: undefined,
      journalInfo: undefined,
      bookOrReportDetails: { publisher: 'bioRxiv' },
    })
    expect(p).toMatchObject({ preprint: true, journal: 'bioRxiv' })
    expect(paperOf(base).preprint).toBe(false)
  })

  test('keeps dates as given, even a publication date after the index date, and refuses impossible ones', () => {
    expect(paperOf(base)).toMatchObject({ publishedDate: '2026-11-20', indexedDate: '2026-11-02' })
    expect(paperOf({ ...base, firstPublicationDate: '2026-02-30' }).publishedDate).toBeNull()
  })

  test('refuses records it cannot make a paper of, with a reason', () => {
    expect(mapRecord({ ...base, source: 'PMC' })).toEqual({ skipped: 'source PMC' })
    expect(mapRecord({ ...base, title: '' })).toEqual({ skipped: 'no title' })
    expect(mapRecord({ ...base, firstIndexDate: undefined })).toEqual({ skipped: 'no firstIndexDate' })
    expect(mapRecord({ ...base, pmid: undefined, id: 'abc' })).toEqual({ skipped: 'no usable MED id' })
    expect(mapRecord({ ...base, title: '\u0000 \u0000' })).toEqual({ skipped: 'no title' })
  })

  test('drops NUL and replaces lone surrogates in every text it keeps', () => {
    const nasty = (s: string) => `${s}\u0000\ud800`
    const paper = paperOf({
      ...base,
      doi: '10.1000/ab\u0000c',
      title: nasty('Rapamycin'),
      authorString: nasty('Smith A'),
      abstractText: `<p>${nasty('Mice lived')} &#xD800;longer.</p>`,
      journalInfo: { journal: { title: nasty('Aging Cell') } },
      license: nasty('cc by'),
      pubTypeList: { pubType: [nasty('Review')] },
      meshHeadingList: {
        meshHeading: [
          {
            descriptorName: nasty('Aging'),
            majorTopic_YN: 'Y',
            meshQualifierList: { meshQualifier: [{ qualifierName: nasty('drug effects') }] },
          },
        ],
      },
      keywordList: { keyword: [nasty('mTOR')] },
      chemicalList: { chemical: [{ name: nasty('Sirolimus'), registryNumber: nasty('W36ZG6FT64') }] },
    })
    expect(JSON.stringify(paper)).not.toMatch(/\\u0000|\\ud[89a-f]/i) // JSON.stringify escapes both when present
    expect(paper).toMatchObject({
      title: 'Rapamycin\ufffd',
      authors: 'Smith A\ufffd',
      abstract: 'Mice lived\ufffd \ufffdlonger.',
      journal: 'Aging Cell\ufffd',
      abstractLicense: 'cc by\ufffd',
      publicationTypes: ['Review\ufffd'],
      keywords: ['mTOR\ufffd'],
      meshHeadings: [{ descriptor: 'Aging\ufffd', major: true, qualifiers: ['drug effects\ufffd'] }],
      chemicals: [{ name: 'Sirolimus\ufffd', registry: 'W36ZG6FT64\ufffd' }],
    })
  })

  test('skips a record with fields of the wrong type instead of failing its page', () => {
    const odd = [
      { ...base, title: 42 },
      { ...base, authorString: ['Smith A'] },
      { ...base, meshHeadingList: { meshHeading: { descriptorName: 'Aging' } } },
      { ...base, abstractText: { p: 'text' } },
      null,
      'a string',
      { ...base, keywordList: { keyword: 'aging' } },
    ] as unknown as EuropePmcRecord[]
    for (const record of odd) {
      const result = mapRecord(record)
      if ('paper' in result) continue // a form the mapping can still read is fine, as long as nothing throws
      expect(result.skipped).toMatch(/^(malformed record: |no title|source missing)/)
    }
    expect((mapRecord({ ...base, title: 42 } as unknown as EuropePmcRecord) as { skipped: string }).skipped).toMatch(
      /^malformed record: /,
    )
  })

  test('a DOI too long to be one is left out', () => {
    expect(paperOf({ ...base, doi: `10.1000/${'x'.repeat(400)}` }).doi).toBeNull()
    expect(normaliseDoi(`10.1000/${'x'.repeat(250)}`)).toBe(`10.1000/${'x'.repeat(250)}`)
  })
})

describe.if(haveSharedFixtures)('mapRecord on recorded core records', () => {
  type Answer = { resultList: { result: EuropePmcRecord[] } }
  const records = haveSharedFixtures ? sharedFixtureJson<Answer>('europepmc-mixed-core-150.json').resultList.result : []
  const mapped = records.map(mapRecord)
  const papers = mapped.flatMap((m) => ('paper' in m ? [m.paper] : []))

  test('maps every MED and PPR record', () => {
    expect(papers.length).toBe(150)
    expect(papers.filter((p) => p.preprint).length).toBe(12)
    for (const p of papers) expect(p.id).toMatch(/^(MED|PPR)-\d+$/)
  })

  test('contract shapes hold for every record', () => {
    for (const p of papers) {
      if (p.doi) expect(p.doi).toBe(p.doi.toLowerCase())
      expect(p.authors.split(', ').filter((a) => a !== 'et al.').length).toBeLessThanOrEqual(3)
      expect(p.abstract ?? '').not.toMatch(/<\/?[a-z][^>]*>/i)
      if (p.abstractLicense) expect(p.abstractLicense).toBe(p.abstractLicense.toLowerCase())
      expect(p.publicationTypes).not.toContain('review-article')
      expect(p.journal.length).toBeGreaterThan(0)
    }
  })

  test('keeps MeSH headings, keywords and chemicals for analysis', () => {
    const p = papers.find((x) => x.id === 'MED-37728583')!
    expect(p.meshHeadings).toContainEqual({ descriptor: 'Autophagy', major: true, qualifiers: ['physiology'] })
    expect(p.chemicals).toEqual([{ name: 'Reactive Oxygen Species', registry: null }])
    expect(p.abstractLicense).toBe('cc by')
    expect(papers.some((x) => x.keywords.length > 0)).toBe(true)
  })
})
