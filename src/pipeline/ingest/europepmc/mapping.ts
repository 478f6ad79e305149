/**
 * A Europe PMC record becomes a paper row (the contract's Paper): ids `<source>-<number>`, DOIs
 * lowercased without resolver prefix, "first three, et al." authors, plain-text abstracts, one
 * vocabulary of publication types. Records that cannot make a valid paper are refused with a reason,
 * malformed ones (a field of the wrong type) included, so one odd record never stops a page. Every
 * text of the paper is storable (db/storable-text.ts): a NUL in one abstract must not fail the page.
 */
import type { Chemical, MeshHeading } from '../../../db/schema'
import { storable } from '../../../db/storable-text'
import { MAX_DOI_LENGTH } from '../rss/doi'
import type { EuropePmcRecord } from './record'

export type MappedPaper = {
  id: string
  source: 'MED' | 'PPR'
  doi: string | null
  title: string
  authors: string
  journal: string
  publishedDate: string | null
  indexedDate: string
  preprint: boolean
  publicationTypes: string[]
  url: string
  abstract: string | null
  abstractLicense: string | null
  meshHeadings: MeshHeading[]
  keywords: string[]
  chemicals: Chemical[]
}

export type MapResult = { paper: MappedPaper } | { skipped: string }

const DATE = /^\d{4}-\d{2}-\d{2}$/

function validDate(value: string | undefined): string | null {
  if (!value || !DATE.test(value)) return null
  const parsed = new Date(`${value}T00:00:00Z`)
  return Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== value ? null : value
}

/** '10.1000/ABC' from 'https://doi.org/10.1000/ABC', 'doi:10.1000/abc' ...; null unless it is a DOI. */
export function normaliseDoi(raw: string | undefined | null): string | null {
  if (!raw) return null
  const doi = raw
    .trim()
    .replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*)/i, '')
    .toLowerCase()
  return doi.length <= MAX_DOI_LENGTH && /^10\.\d{4,9}\/\S+$/.test(doi) ? doi : null
}

/** 'A B, C D, E F, G H.' -> 'A B, C D, E F, et al.' */
export function shortAuthors(authorString: string | undefined): string {
  const names = (authorString ?? '')
    .trim()
    .replace(/\.$/, '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)
  return names.length > 3 ? `${names.slice(0, 3).join(', ')}, et al.` : names.join(', ')
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return ENTITIES[name.toLowerCase()] ?? whole
  })
}

const BLOCK_TAGS = new Set([
  'p',
  'sec',
  'div',
  'br',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'abstract',
  'list',
  'list-item',
  'li',
  'ul',
  'ol',
])

/**
 * Europe PMC abstracts carry JATS/HTML markup (`<p>`, `<italic>`, `<sup>`, section `<title>`s).
 * Paragraphs and sections become lines; a lone "Abstract" heading is dropped; other headings
 * ("Background") lead their section as "Background: ...". One pass over the tags: harvest speed
 * is bounded by this function on abstract-heavy pages.
 */
export function plainText(html: string | undefined): string | null {
  if (!html) return null
  let text =
    html.indexOf('<') < 0
      ? html
      : html.replace(/<(\/?)([A-Za-z][\w:-]*)[^>]*>/g, (_, close: string, name: string) => {
          const tag = name.toLowerCase()
          if (tag === 'title') return close ? '\u0001' : '\n'
          return BLOCK_TAGS.has(tag) ? '\n' : ''
        })
  if (text.indexOf('&') >= 0) text = decodeEntities(text)
  // Explicit classes: a negated one (/[^\S\n]/) is several times slower on long abstracts.
  text = text
    .replace(/[ \t\r\f\v\u00a0\u2002-\u200a\u3000]{2,}|[\t\r\f\v\u00a0\u2002-\u200a\u3000]/g, ' ')
    .replace(/ ?\n[\s]*/g, '\n')
    .trim()
  if (text.indexOf('\u0001') >= 0) {
    text = text
      .replace(/(^|\n) ?abstract ?\u0001\s*/gi, '$1')
      .replace(/\s*\u0001\s*/g, ': ')
      .replace(/: $/, '')
  }
  return text || null
}

/** Canonical names for the types that come in JATS (`review-article`) or lowercase (lite) spelling. */
const TYPE_NAMES: Record<string, string> = {
  'journal article': 'Journal Article',
  'research-article': 'Journal Article',
  'research article': 'Journal Article',
  review: 'Review',
  'review-article': 'Review',
  'systematic-review': 'Systematic Review',
  'systematic review': 'Systematic Review',
  'meta-analysis': 'Meta-Analysis',
  preprint: 'Preprint',
  'case-report': 'Case Reports',
  'case reports': 'Case Reports',
  'brief-report': 'Brief Report',
  correction: 'Published Erratum',
  'published erratum': 'Published Erratum',
  editorial: 'Editorial',
  letter: 'Letter',
  'article-commentary': 'Comment',
  comment: 'Comment',
  retraction: 'Retraction of Publication',
  'retraction of publication': 'Retraction of Publication',
  'retracted publication': 'Retracted Publication',
  'randomized controlled trial': 'Randomized Controlled Trial',
  'clinical trial': 'Clinical Trial',
  'observational study': 'Observational Study',
  'research-support': 'Research Support',
}

export function normalisePublicationTypes(raw: string[]): string[] {
  const out: string[] = []
  for (const item of raw) {
    const trimmed = item.trim()
    if (!trimmed) continue
    const known = TYPE_NAMES[trimmed.toLowerCase()]
    // Unknown JATS-style names ('product-review') read as words; MEDLINE names are kept as they are.
    const name =
      known ??
      (/^[a-z]+(?:-[a-z]+)+$/.test(trimmed)
        ? trimmed.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase())
        : trimmed)
    if (!out.includes(name)) out.push(name)
  }
  return out
}

function publicationTypesOf(r: EuropePmcRecord): string[] {
  const list = r.pubTypeList?.pubType
  const raw = Array.isArray(list) ? list : typeof list === 'string' ? [list] : (r.pubType ?? '').split(';')
  return normalisePublicationTypes(raw.filter((t): t is string => typeof t === 'string'))
}

function meshOf(r: EuropePmcRecord): MeshHeading[] {
  const out: MeshHeading[] = []
  for (const h of r.meshHeadingList?.meshHeading ?? []) {
    const descriptor = h.descriptorName?.trim()
    if (!descriptor || out.some((m) => m.descriptor === descriptor)) continue
    const qualifiers = (h.meshQualifierList?.meshQualifier ?? [])
      .map((q) => q.qualifierName?.trim())
      .filter((q): q is string => !!q)
    out.push({
      descriptor,
      major: h.majorTopic_YN === 'Y' || (h.meshQualifierList?.meshQualifier ?? []).some((q) => q.majorTopic_YN === 'Y'),
      qualifiers,
    })
  }
  return out
}

function keywordsOf(r: EuropePmcRecord): string[] {
  const out: string[] = []
  for (const k of r.keywordList?.keyword ?? []) {
    const keyword = typeof k === 'string' ? k.trim() : ''
    if (keyword && !out.includes(keyword)) out.push(keyword)
  }
  return out
}

function chemicalsOf(r: EuropePmcRecord): Chemical[] {
  return (r.chemicalList?.chemical ?? [])
    .filter((c) => c.name?.trim())
    .map((c) => ({
      name: c.name!.trim(),
      registry: c.registryNumber && c.registryNumber !== '0' ? c.registryNumber : null,
    }))
}

/** The DOI as a resolver URL; characters a URL path cannot hold ('#', '?', spaces) are escaped. */
export function doiUrl(doi: string): string {
  return `https://doi.org/${encodeURI(doi).replace(/#/g, '%23').replace(/\?/g, '%3F')}`
}

export function mapRecord(record: EuropePmcRecord): MapResult {
  try {
    const mapped = mapWellFormed(record)
    if ('skipped' in mapped) return mapped
    const paper = storable(mapped.paper)
    return paper.title.trim() ? { paper } : { skipped: 'no title' } // a title of NUL characters is none
  } catch (error) {
    // A field of an unexpected type (a number for a title, an object for a list) in this record only.
    return { skipped: `malformed record: ${error instanceof Error ? error.message : String(error)}` }
  }
}

function mapWellFormed(r: EuropePmcRecord): MapResult {
  const source = r.source
  if (source !== 'MED' && source !== 'PPR') return { skipped: `source ${source ?? 'missing'}` }
  const number = source === 'MED' ? (r.pmid ?? r.id) : r.id?.replace(/^PPR/i, '')
  if (!number || !/^\d+$/.test(number)) return { skipped: `no usable ${source} id` }
  const title = plainText(r.title)?.replace(/\n/g, ' ')
  if (!title) return { skipped: 'no title' }
  const indexedDate = validDate(r.firstIndexDate)
  if (!indexedDate) return { skipped: 'no firstIndexDate' }
  const doi = normaliseDoi(r.doi)
  const preprint = source === 'PPR'
  const journal =
    (preprint ? r.bookOrReportDetails?.publisher : undefined) ??
    r.journalInfo?.journal?.title ??
    r.journalTitle ??
    r.bookOrReportDetails?.publisher ??
    (preprint ? 'Preprint server' : 'Unknown journal')
  const abstract = plainText(r.abstractText)
  const license = r.license?.trim().toLowerCase() || null
  return {
    paper: {
      id: `${source}-${number}`,
      source,
      doi,
      title,
      authors: shortAuthors(r.authorString),
      journal: journal.trim(),
      publishedDate: validDate(r.firstPublicationDate),
      indexedDate,
      preprint,
      publicationTypes: publicationTypesOf(r),
      url: doi ? doiUrl(doi) : `https://europepmc.org/article/${source}/${r.id}`,
      abstract,
      abstractLicense: license,
      meshHeadings: meshOf(r),
      keywords: keywordsOf(r),
      chemicals: chemicalsOf(r),
    },
  }
}
