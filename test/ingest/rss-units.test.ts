import { describe, expect, test } from 'bun:test'
import { assertPublicHost, isPrivateAddress } from '../../src/pipeline/ingest/rss/address'
import { webLink } from '../../src/pipeline/ingest/rss/article'
import { charsetOf, declaredEncoding, decodeFeed, utf8Tally } from '../../src/pipeline/ingest/rss/decode'
import { findDoi } from '../../src/pipeline/ingest/rss/doi'
import { FeedParseError, parseFeed, repairEntities } from '../../src/pipeline/ingest/rss/parse'
import { distinctArticles } from '../../src/pipeline/ingest/rss/store'
import { haveSharedFixtures, noteMissingFixtures, sharedFixtureBytes } from '../support/shared-fixtures'

noteMissingFixtures('rss units')

const bytes = (...values: number[]) => new Uint8Array(values)
const ascii = (s: string) => new TextEncoder().encode(s)

describe('isPrivateAddress', () => {
  test.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['8.8.8.8', false],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['ff02::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:8.8.8.8', false],
    ['2606:4700::1111', false],
    ['not-an-ip', true],
  ])('%s is private: %p', (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected)
  })

  test('refuses hosts that are or resolve to loopback addresses', async () => {
    await expect(assertPublicHost('127.0.0.1')).rejects.toThrow('loopback')
    await expect(assertPublicHost('[::1]')).rejects.toThrow('private')
    await expect(assertPublicHost('localhost')).rejects.toThrow('localhost')
  })
})

describe('decodeFeed', () => {
  test('reads the charset from Content-Type and the encoding from the XML declaration', () => {
    expect(charsetOf('application/rss+xml; charset="ISO-8859-1"')).toBe('iso-8859-1')
    expect(declaredEncoding(ascii("<?xml version='1.0' encoding='KOI8-R'?><rss/>"))).toBe('koi8-r')
    expect(decodeFeed(bytes(0x3c, 0x61, 0x3e, 0xe9, 0x3c, 0x2f, 0x61, 0x3e), 'text/xml; charset=iso-8859-1').text).toBe(
      '<a>é</a>',
    )
  })

  test('a byte-order mark wins over every label', () => {
    const utf16 = new Uint8Array([0xff, 0xfe, ...[...'<a>é</a>'].flatMap((c) => [c.charCodeAt(0), 0])])
    expect(decodeFeed(utf16, 'text/xml; charset=iso-8859-1')).toEqual({ text: '<a>é</a>', encoding: 'utf-16le' })
    expect(decodeFeed(bytes(0xef, 0xbb, 0xbf, 0x3c, 0x61, 0x2f, 0x3e), null).text).toBe('<a/>')
  })

  test('valid UTF-8 under a wrong single-byte label is read as UTF-8; invalid UTF-8 under a UTF-8 label as windows-1252', () => {
    expect(decodeFeed(ascii('<?xml version="1.0" encoding="ISO-8859-1"?><a>Café</a>'), null).encoding).toBe('utf-8')
    expect(decodeFeed(bytes(0x3c, 0x61, 0x3e, 0x80, 0x3c, 0x2f, 0x61, 0x3e), 'text/xml; charset=utf-8').text).toBe(
      '<a>€</a>',
    )
    expect(decodeFeed(bytes(0x3c, 0x61, 0x3e, 0xe9, 0x3c, 0x2f, 0x61, 0x3e), 'text/xml; charset=bogus-8').text).toBe(
      '<a>é</a>',
    )
  })
})

describe('decodeFeed under a UTF-8 label with bytes that are not UTF-8', () => {
  const utf8 = (s: string) => new TextEncoder().encode(s)
  const join = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((p) => [...p]))

  test('a UTF-8 feed with a few bad bytes keeps its text; only the bad bytes become U+FFFD', () => {
    const feed = join(
      utf8('<a>Müller, Ørsted — “senolytics”, 5 µM, '),
      bytes(0xe9),
      utf8(' and '),
      bytes(0xe2, 0x80),
      utf8(' end</a>'),
    )
    expect(decodeFeed(feed, 'application/rss+xml; charset=utf-8')).toEqual({
      text: '<a>Müller, Ørsted — “senolytics”, 5 µM, \ufffd and \ufffd end</a>',
      encoding: 'utf-8',
    })
    expect(
      decodeFeed(join(utf8('<?xml version="1.0" encoding="UTF-8"?><a>naïve '), bytes(0xff), utf8('</a>')), null).text,
    ).toEndWith('<a>naïve \ufffd</a>')
  })

  test('a windows-1252 feed labelled UTF-8 is read as windows-1252: it has no valid multi-byte sequence', () => {
    const feed = join(
      utf8('<a>Caf'),
      bytes(0xe9),
      utf8(' cr'),
      bytes(0xe8),
      utf8('me br'),
      bytes(0xfb),
      utf8('l'),
      bytes(0xe9),
      utf8('e '),
      bytes(0x93, 0x80, 0x94),
      utf8('</a>'),
    )
    expect(decodeFeed(feed, 'text/xml; charset=utf-8')).toEqual({
      text: '<a>Café crème brûlée “€”</a>',
      encoding: 'windows-1252',
    })
  })

  test('counts invalid sequences as a decoder replaces them, and valid multi-byte ones', () => {
    const cases = [
      bytes(0x41),
      bytes(0xc3, 0xa9),
      bytes(0xe9),
      bytes(0xe2, 0x80),
      bytes(0xe2, 0x80, 0x99),
      bytes(0xf0, 0x9f, 0xa7, 0xac),
      bytes(0xf0, 0x9f, 0xa7),
      bytes(0xc0, 0xaf),
      bytes(0xed, 0xa0, 0x80),
      bytes(0xf4, 0x90, 0x80, 0x80),
      bytes(0x80, 0xbf),
      bytes(0xe0, 0x80, 0x80),
      bytes(0xff, 0xfe, 0x41),
    ]
    for (const sample of cases) {
      const replaced = [...new TextDecoder().decode(sample)].filter((c) => c === '\ufffd').length
      expect(utf8Tally(sample).invalid).toBe(replaced)
    }
    expect(utf8Tally(utf8('é🧬’ and ascii'))).toEqual({ valid: 3, invalid: 0 })
  })
})

describe.if(haveSharedFixtures)('decodeFeed on real mislabelled documents', () => {
  test('ISO-8859-1 bytes under an XML declaration of utf-8 come out as Latin-1 (miniflux)', () => {
    const { text, encoding } = decodeFeed(sharedFixtureBytes('rss/miniflux/xml_iso88591_utf8_mismatch.xml'), null)
    expect(encoding).toBe('windows-1252')
    expect(text).toContain('<to>Anaïs</to>')
    expect(text).toContain('<from>Jürgen</from>')
  })

  test('UTF-8 quotes followed by one stray byte keep the quotes (feedparser bozo_linenoise)', () => {
    const { text, encoding } = decodeFeed(
      sharedFixtureBytes('rss/feedparser/encoding-bozo/bozo_linenoise.xml'),
      'text/xml; charset=utf-8',
    )
    expect(encoding).toBe('utf-8')
    expect(text).toContain('<![CDATA[ ’<>”\ufffd ]]>')
  })
})

describe('webLink', () => {
  test.each([
    ['https://journal.test/doi/10.1111/acel.1', true],
    ['http://example.com/bad?foo=1&bar=2', true],
    ['HTTPS://A.TEST/x', true],
    ['javascript:alert(1)', false],
    ['JavaScript:alert(1)', false],
    [' javascript:alert(1)', false],
    ['java\tscript:alert(1)', false],
    ['\u0001javascript:alert(1)', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['vbscript:msgbox(1)', false],
    ['/relative/path', false],
    ['//evil.test/x', false],
    ['article.html', false],
    ['https://', false],
    ['http:///nohost', false],
    ['https://exa mple.test/', false],
    ['ftp://files.test/a', false],
    ['mailto:someone@x.test', false],
    [`https://a.test/${'x'.repeat(3000)}`, false],
  ])('%s is kept: %p', (link, kept) => {
    expect(webLink(link)).toBe(kept ? link : null)
  })
})

describe('findDoi', () => {
  test.each([
    ['https://doi.org/10.1111/ACEL.14000', '10.1111/acel.14000'],
    ['http://ajph.aphapublications.org/doi/abs/10.2105/AJPH.2014.302274?af=R', '10.2105/ajph.2014.302274'],
    ['https://www.biorxiv.org/content/10.1101/2026.11.01.123456v1.full', '10.1101/2026.11.01.123456v1'],
    ['https://onlinelibrary.wiley.com/doi/10.1111%2Facel.70001', '10.1111/acel.70001'],
    ['See doi:10.1038/s43587-026-00999-x.', '10.1038/s43587-026-00999-x'],
    ['10.1016/S0140-6736(24)02600-X', '10.1016/s0140-6736(24)02600-x'],
    ['https://example.com/no-doi-here', null],
  ])('%s -> %s', (input, expected) => {
    expect(findDoi(input)).toBe(expected)
  })
})

describe('parseFeed', () => {
  test('repairs bare ampersands and HTML entity names, but not inside CDATA', () => {
    expect(repairEntities('<a>x&y &nbsp; &amp; &#38; &bogus;</a><![CDATA[a & b]]>')).toBe(
      '<a>x&amp;y &#160; &amp; &#38; &amp;bogus;</a><![CDATA[a & b]]>',
    )
  })

  test('drops references to characters XML forbids, which would lose the whole feed', () => {
    expect(repairEntities('<a>n&#0;u&#x0;l &#1;&#xD800;&#55296;&#xFFFE;&#x110000; kept: &#9;&#x1F9EC;&#233;</a>')).toBe(
      '<a>nul  kept: &#9;&#x1F9EC;&#233;</a>',
    )
  })

  test('keeps items with NUL characters, without them, and counts refused links and the items they leave unusable', async () => {
    const feed = `<rss version="2.0"><channel><title>T</title>
      <item><title>Senolytics\u0000 &#0;in mice</title><link>https://a.test/1</link><guid>g\u00001</guid><description>Cleared &#xD800;cells\u0000.</description><author>Ann\u0000</author></item>
      <item><title>Script link, kept by its guid</title><link>javascript:alert(document.cookie)</link><guid>g2</guid></item>
      <item><title>Data link, kept by its DOI</title><link>data:text/html;base64,PHNjcmlwdD4=</link><prism:doi xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/">10.1111/acel.3</prism:doi></item>
      <item><title>Relative link and nothing else</title><link>/articles/4</link></item>
      <item><title>\u0000</title><link>vbscript:msgbox(1)</link></item>
      <item><title>No link at all</title></item>
    </channel></rss>`
    const parsed = await parseFeed(feed)
    expect(parsed).toEqual({
      articles: [
        {
          guid: 'g1',
          link: 'https://a.test/1',
          doi: null,
          title: 'Senolytics in mice',
          summary: 'Cleared cells.',
          author: 'Ann',
          publishedAt: null,
        },
        {
          guid: 'g2',
          link: null,
          doi: null,
          title: 'Script link, kept by its guid',
          summary: null,
          author: null,
          publishedAt: null,
        },
        {
          guid: null,
          link: null,
          doi: '10.1111/acel.3',
          title: 'Data link, kept by its DOI',
          summary: null,
          author: null,
          publishedAt: null,
        },
        { guid: null, link: null, doi: null, title: 'No link at all', summary: null, author: null, publishedAt: null },
      ],
      linksRefused: 4,
      itemsSkipped: 2,
    })
  })

  test('refuses HTML, JSON and empty documents with a reason', async () => {
    await expect(parseFeed('<!DOCTYPE html><html><body>Moved</body></html>')).rejects.toThrow(
      'an HTML page, not a feed',
    )
    await expect(parseFeed('{"version": "https://jsonfeed.org/version/1"}')).rejects.toThrow('JSON')
    await expect(parseFeed('   ')).rejects.toBeInstanceOf(FeedParseError)
    await expect(parseFeed('<rss version="2.0"><channel><item><title>cut')).rejects.toThrow(
      'not a readable RSS or Atom feed',
    )
  })

  test('reads RSS 2.0, RSS 1.0 with prefixed elements and Atom alike', async () => {
    const { articles: rss2 } = await parseFeed(
      '<rss version="2.0"><channel><title>T</title><item><title>A &amp; B</title><link>https://doi.org/10.1/x</link><guid>g1</guid><pubDate>Tue, 03 Jun 2003 09:39:21 GMT</pubDate></item></channel></rss>',
    )
    expect(rss2).toEqual([
      {
        guid: 'g1',
        link: 'https://doi.org/10.1/x',
        doi: null,
        title: 'A & B',
        summary: null,
        author: null,
        publishedAt: new Date('2003-06-03T09:39:21Z'),
      },
    ])
    const { articles: rdf } =
      await parseFeed(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:rss="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <rss:channel rdf:about="c"><rss:title>T</rss:title></rss:channel>
      <rss:item rdf:about="https://journal.test/doi/10.1234/abc"><rss:title>Old mice</rss:title><rss:link>https://journal.test/doi/10.1234/abc</rss:link><dc:identifier>doi:10.1234/ABC</dc:identifier></rss:item></rdf:RDF>`)
    expect(rdf).toMatchObject([{ guid: 'https://journal.test/doi/10.1234/abc', title: 'Old mice', doi: '10.1234/abc' }])
    const { articles: atom } = await parseFeed(
      '<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><entry><id>urn:1</id><title>E</title><link href="https://x.test/1"/><updated>2026-11-20T10:00:00Z</updated><author><name>Ann</name></author></entry></feed>',
    )
    expect(atom).toMatchObject([
      {
        guid: 'urn:1',
        link: 'https://x.test/1',
        title: 'E',
        author: 'Ann',
        publishedAt: new Date('2026-11-20T10:00:00Z'),
      },
    ])
  })
})

describe('distinctArticles', () => {
  test('drops items repeating a guid, a link or a DOI already seen in the feed', () => {
    const a = (guid: string | null, link: string | null, doi: string | null) => ({
      guid,
      link,
      doi,
      title: 't',
      summary: null,
      author: null,
      publishedAt: null,
    })
    const kept = distinctArticles([
      a('1', 'l1', null),
      a('1', 'l2', null),
      a('2', 'l1', null),
      a('3', 'l3', '10.1/x'),
      a('4', 'l4', '10.1/x'),
      a(null, 'l5', null),
    ])
    expect(kept.map((k) => k.guid ?? k.link)).toEqual(['1', '3', 'l5'])
  })
})

describe.if(haveSharedFixtures)('parseFeed on real feeds', () => {
  const read = async (path: string) =>
    (await parseFeed(decodeFeed(sharedFixtureBytes(`rss/${path}`), null).text)).articles

  test('a journal table of contents in RSS 1.0 with rss: prefixes (Atypon) gives articles with DOIs', async () => {
    const items = await read('feedjira/AtyponRSSFeed_AJPH.xml')
    expect(items.length).toBe(20)
    expect(items.every((i) => i.doi?.startsWith('10.2105/ajph.'))).toBe(true)
  })

  test('a bioRxiv subject collection gives the preprint DOI', async () => {
    const [item] = await read('miniflux/biorxiv_subject_collection_bioengineering.rdf.xml')
    expect(item.doi).toBe('10.1101/857789')
  })

  test('declared and undeclared legacy encodings come out as the right characters', async () => {
    expect((await read('miniflux/encoding_koi8r.xml'))[0].title).toBe('Первая новость')
    expect((await read('miniflux/parser_encoding_WINDOWS-1251.xml'))[0].title).toBe('Цитата #17703')
    expect((await read('miniflux/encoding_utf8-incorrect-prolog.xml'))[0].title).toBe('Café')
    expect((await read('miniflux/parser_no_encoding_ISO-8859-1.xml'))[0].title).toStartWith(
      'Perturbateurs endocriniens',
    )
    expect((await read('node-feedparser/iconv.xml'))[0].title).toContain('Бузулуке')
  })

  test('an unescaped ampersand in one item no longer loses the feed', async () => {
    const items = await read('node-feedparser/saxerror.xml')
    expect(items.map((i) => i.link)).toEqual([
      'http://example.com/good',
      'http://example.com/bad?foo=1&bar=2',
      'http://example.com/after',
    ])
  })

  test.each([
    'feedparser/illformed/aaa_illformed.xml',
    'feedparser/illformed/rss_incomplete_cdata.xml',
    'feedparser/illformed/rss_empty_document.xml',
    'feedparser/encoding-bozo/bozo_invalid-bytes-with-bom.xml',
    'rss-parser/unrecognized.rss',
    'feedjira/json_feed.json',
  ])('%s is refused as not a feed', async (path) => {
    await expect(read(path)).rejects.toBeInstanceOf(FeedParseError)
  })
})
