/**
 * Feed text to articles with rss-parser (RSS 2.0, RSS 1.0/RDF, Atom). rss-parser reads strings
 * only; fetching and decoding happen before (fetch.ts, decode.ts). Anything that is not a feed
 * (HTML, JSON, broken XML) throws a FeedParseError with a short reason for the source's last_error.
 */
import Parser from 'rss-parser'
import { readItems, type FeedItem, type ParsedFeed } from './article'

export class FeedParseError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FeedParseError'
  }
}

const FEED_NAMESPACES = [
  'http://purl.org/rss/1.0/',
  'http://www.w3.org/2005/Atom',
  'http://my.netscape.com/rdf/simple/0.9/',
]

/**
 * A parser for one document. A fresh one each time: an xml2js parser that met an error can stay
 * stuck and never answer again. Prefixes bound to the RSS 1.0 or Atom namespaces (`<rss:item>` in
 * Atypon journal feeds, `<a:feed>`) are stripped so rss-parser sees the names it knows.
 */
function parserFor(feedText: string) {
  const head = feedText.slice(0, 4096)
  const prefixes = [...head.matchAll(/xmlns:([A-Za-z_][\w.-]*)\s*=\s*["']([^"']+)["']/g)]
    .filter((m) => FEED_NAMESPACES.includes(m[2]))
    .map((m) => `${m[1]}:`)
  const strip = (name: string) => {
    const prefix = prefixes.find((p) => name.startsWith(p))
    return prefix ? name.slice(prefix.length) : name
  }
  return new Parser<Record<string, unknown>, FeedItem>({
    customFields: { item: ['dc:identifier', 'prism:doi'] },
    defaultRSS: 2, // '<rss>' without a version attribute
    xml2js: prefixes.length ? { tagNameProcessors: [strip] } : {},
  })
}

/** HTML entity names XML lacks, as hand-made feeds use them; any other unknown name is escaped. */
const HTML_ENTITIES: Record<string, number> = {
  nbsp: 160,
  copy: 169,
  reg: 174,
  trade: 8482,
  mdash: 8212,
  ndash: 8211,
  hellip: 8230,
  lsquo: 8216,
  rsquo: 8217,
  ldquo: 8220,
  rdquo: 8221,
  laquo: 171,
  raquo: 187,
  middot: 183,
  bull: 8226,
  deg: 176,
  plusmn: 177,
  times: 215,
  micro: 181,
  alpha: 945,
  beta: 946,
  gamma: 947,
  delta: 948,
  kappa: 954,
  mu: 956,
  le: 8804,
  ge: 8805,
  eacute: 233,
  egrave: 232,
  aacute: 225,
  agrave: 224,
  oacute: 243,
  iacute: 237,
  uacute: 250,
  ntilde: 241,
  uuml: 252,
  ouml: 246,
  auml: 228,
  szlig: 223,
  ccedil: 231,
}
const XML_ENTITIES = new Set(['amp', 'lt', 'gt', 'quot', 'apos'])

/** Whether XML 1.0 allows the character (a reference to any other, such as `&#0;`, fails the whole document). */
const isXmlChar = (code: number) =>
  code === 0x9 ||
  code === 0xa ||
  code === 0xd ||
  (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code <= 0xfffd) ||
  (code >= 0x10000 && code <= 0x10ffff)

/**
 * Repairs the commonest fatal flaws of real feeds, outside CDATA sections: a bare '&' (`?a=1&b=2`
 * in a link), HTML entity names, and numeric references to characters XML forbids (`&#0;`, a lone
 * surrogate), which are dropped. Everything else that is not well-formed stays an error.
 */
export function repairEntities(xml: string): string {
  return xml
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(
            /&(?:#(\d+);|#x([0-9a-fA-F]+);|([A-Za-z][\w.-]*;))?/g,
            (whole, decimal?: string, hex?: string, named?: string) => {
              if (decimal !== undefined || hex !== undefined) {
                const code = decimal !== undefined ? Number(decimal) : parseInt(hex!, 16)
                return isXmlChar(code) ? whole : ''
              }
              if (!named) return '&amp;'
              const name = named.slice(0, -1)
              if (XML_ENTITIES.has(name)) return whole
              const code = HTML_ENTITIES[name]
              return code ? `&#${code};` : `&amp;${named}`
            },
          ),
    )
    .join('')
}

/** The name of the document's first element, past the XML declaration, comments and a DOCTYPE. */
function rootElement(head: string): string | null {
  const rest = head.replace(
    /^\uFEFF?\s*(?:<\?xml[^>]*>\s*)?(?:(?:<!--[\s\S]*?-->|<!DOCTYPE[^[>]*(?:\[[\s\S]*?\])?\s*>)\s*)*/i,
    '',
  )
  return rest.match(/^<([A-Za-z_][\w.:-]*)/)?.[1] ?? null
}

export async function parseFeed(feedText: string): Promise<ParsedFeed> {
  const head = feedText.slice(0, 2048)
  if (!head.trim()) throw new FeedParseError('empty document')
  if (/^\s*[[{]/.test(head)) throw new FeedParseError('JSON, not an RSS or Atom feed')
  const root = rootElement(head)
  if (root && /^(?:html|head|body)$/i.test(root)) throw new FeedParseError('an HTML page, not a feed')
  let feed: Parser.Output<FeedItem>
  try {
    feed = await parserFor(feedText).parseString(repairEntities(feedText))
  } catch (error) {
    // rss-parser reads a channel-less <rss> or <rdf:RDF> (valid, if useless) as a TypeError: an empty feed.
    if (error instanceof TypeError && root && /^(?:rss|rdf:RDF)$/.test(root)) return readItems([])
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error)
    throw new FeedParseError(`not a readable RSS or Atom feed: ${reason.slice(0, 200)}`)
  }
  return readItems(feed.items ?? [])
}
