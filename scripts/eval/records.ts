/**
 * One reader for every record format the evaluation sets are drawn from, each record mapped to the
 * analyzer's PaperInput (title, plain-text abstract, journal, publication types, MeSH when the record
 * has it, keywords, chemicals). Records are read from ../shared/fixtures at run time, never copied.
 *
 *   Europe PMC core JSON   the harvester's own mapping (src/pipeline/ingest/europepmc/mapping.ts)
 *   MEDLINE / PubMed XML   <MedlineCitation> blocks, MedlineCitationSet and PubmedArticleSet alike (.xml, .xml.gz)
 *   Lund-Autophagy JSON    EasyNER's PubMed records keyed by PMID ("UI:term; ..." lists)
 *   PubMedQA JSON          the question (the title as a question), the contexts and the conclusion
 *   SYNERGY zip / json.gz  OpenAlex works; the abstract rebuilt from its inverted index
 *
 * Ids: MED-<pmid>, PPR-<n> (and AGR-<n>) as Europe PMC names them; OpenAlex works without a PMID are
 * OA-<work id>, and a PMID that two works share names neither.
 */
import { existsSync, readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { XMLParser } from 'fast-xml-parser'
import { strFromU8, unzipSync } from 'fflate'
import {
  mapRecord,
  normalisePublicationTypes,
  plainText as europePmcText,
} from '../../src/pipeline/ingest/europepmc/mapping'
import type { EuropePmcRecord } from '../../src/pipeline/ingest/europepmc/record'
import type { Chemical, MeshHeading } from '../../src/db/schema'
import type { PaperInput } from '../../src/pipeline/analysis/types'

export const fixturesDir = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url))
export const haveFixtures = existsSync(fixturesDir)

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/** Inline markup (<i>, <sup>, <b>) dropped, entities decoded, white space folded. */
export function plain(text: string): string {
  return text
    .replace(/<[^>]+>/g, '')
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&([a-z]+);/gi, (whole, e: string) => ENTITIES[e.toLowerCase()] ?? whole)
    .replace(/\s+/g, ' ')
    .trim()
}

const list = <T>(x: T | T[] | undefined | null): T[] =>
  x === undefined || x === null ? [] : Array.isArray(x) ? x : [x]
const textOf = (x: unknown): string =>
  typeof x === 'string' || typeof x === 'number'
    ? String(x)
    : typeof x === 'object' && x && '#text' in x
      ? String((x as { '#text': unknown })['#text'])
      : ''

function paper(id: string, fields: Partial<PaperInput>): PaperInput {
  return {
    id,
    title: '',
    abstract: null,
    journal: '',
    preprint: false,
    publicationTypes: [],
    meshHeadings: [],
    keywords: [],
    chemicals: [],
    ...fields,
  }
}

/** "D000818:Animals; D051379:Mice" -> ['Animals', 'Mice'] (Lund's lists carry the MeSH unique id first). */
const uiList = (s: string | undefined) =>
  (s ?? '')
    .split(/;\s*/)
    .map((item) => item.replace(/^[A-Z]\d+:/, '').trim())
    .filter(Boolean)

type LundArticle = {
  title?: string
  abstract?: string
  journal?: string
  publication_types?: string
  mesh_terms?: string
  keywords?: string
  chemical_list?: string
}
function readLund(text: string): PaperInput[] {
  const body = JSON.parse(text) as Record<string, LundArticle>
  return Object.entries(body).map(([pmid, r]) =>
    paper(`MED-${pmid}`, {
      title: plain(r.title ?? ''),
      // Lund keeps section breaks as new lines; the harvester's abstracts do too.
      abstract: (r.abstract ?? '').split('\n').map(plain).filter(Boolean).join('\n') || null,
      journal: r.journal ?? '',
      publicationTypes: uiList(r.publication_types),
      // Lund's MeSH lists do not mark major topics.
      meshHeadings: uiList(r.mesh_terms).map((descriptor) => ({ descriptor, major: false, qualifiers: [] })),
      keywords: (r.keywords ?? '')
        .split(/;\s*/)
        .map((k) => k.trim())
        .filter(Boolean),
      chemicals: uiList(r.chemical_list).map((name) => ({ name, registry: null })),
    }),
  )
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  processEntities: true,
  htmlEntities: true,
  parseTagValue: false,
  stopNodes: ['*.ArticleTitle', '*.AbstractText'], // inline markup stays raw text, stripped by plain()
  isArray: (name) =>
    [
      'MedlineCitation',
      'PubmedArticle',
      'AbstractText',
      'PublicationType',
      'MeshHeading',
      'QualifierName',
      'Keyword',
      'Chemical',
      'KeywordList',
    ].includes(name),
})

type XmlHeading = { DescriptorName: unknown; QualifierName?: unknown[] }
type Citation = {
  PMID: unknown
  Article: {
    ArticleTitle?: unknown
    Journal?: { Title?: unknown }
    Abstract?: { AbstractText?: unknown[] }
    PublicationTypeList?: { PublicationType?: unknown[] }
  }
  MeshHeadingList?: { MeshHeading?: XmlHeading[] }
  KeywordList?: { Keyword?: unknown[] }[]
  ChemicalList?: { Chemical?: { NameOfSubstance: unknown; RegistryNumber?: unknown }[] }
}
const attr = (x: unknown, name: string) =>
  typeof x === 'object' && x ? (x as Record<string, unknown>)[`@${name}`] : undefined

function readMedline(text: string): PaperInput[] {
  const doc = xml.parse(text) as {
    MedlineCitationSet?: { MedlineCitation?: Citation[] }
    PubmedArticleSet?: { PubmedArticle?: { MedlineCitation: Citation[] }[] }
  }
  const citations = [
    ...list(doc.MedlineCitationSet?.MedlineCitation),
    ...list(doc.PubmedArticleSet?.PubmedArticle).flatMap((a) => list(a.MedlineCitation)),
  ]
  return citations.map((c) =>
    paper(`MED-${textOf(c.PMID).trim()}`, {
      title: plain(textOf(c.Article.ArticleTitle)),
      abstract:
        list(c.Article.Abstract?.AbstractText)
          .map((a) => {
            const label = attr(a, 'Label')
            const body = plain(textOf(a))
            return label && body ? `${label}: ${body}` : body
          })
          .filter(Boolean)
          .join('\n') || null,
      journal: plain(textOf(c.Article.Journal?.Title)),
      publicationTypes: list(c.Article.PublicationTypeList?.PublicationType).map((t) => plain(textOf(t))),
      meshHeadings: list(c.MeshHeadingList?.MeshHeading).map((h) => ({
        descriptor: plain(textOf(h.DescriptorName)),
        major:
          attr(h.DescriptorName, 'MajorTopicYN') === 'Y' ||
          list(h.QualifierName).some((q) => attr(q, 'MajorTopicYN') === 'Y'),
        qualifiers: list(h.QualifierName).map((q) => plain(textOf(q))),
      })),
      keywords: list(c.KeywordList)
        .flatMap((k) => list(k.Keyword))
        .map((k) => plain(textOf(k)))
        .filter(Boolean),
      chemicals: list(c.ChemicalList?.Chemical).map((ch) => {
        const registry = plain(textOf(ch.RegistryNumber))
        return { name: plain(textOf(ch.NameOfSubstance)), registry: registry && registry !== '0' ? registry : null }
      }),
    }),
  )
}

function readEuropePmc(text: string): PaperInput[] {
  const body = JSON.parse(text) as { resultList: { result: (EuropePmcRecord & { id: string; source: string })[] } }
  return body.resultList.result.map((r) => {
    const id = `${r.source}-${r.id.replace(/^[A-Z]+/, '')}`
    const mapped = mapRecord(r)
    if ('paper' in mapped) return paper(id, { ...mapped.paper, id })
    // Sources the harvester does not take (AGR): the same fields, read the same way.
    return paper(id, {
      title: europePmcText(r.title)?.replace(/\n/g, ' ') ?? '',
      abstract: europePmcText(r.abstractText),
      journal: r.journalInfo?.journal?.title ?? r.bookOrReportDetails?.publisher ?? '',
      publicationTypes: normalisePublicationTypes(list(r.pubTypeList?.pubType)),
      meshHeadings: list(r.meshHeadingList?.meshHeading).map((h) => ({
        descriptor: h.descriptorName ?? '',
        major: h.majorTopic_YN === 'Y',
        qualifiers: [],
      })),
      keywords: list(r.keywordList?.keyword),
      chemicals: list(r.chemicalList?.chemical).map((c) => ({ name: c.name ?? '', registry: null })),
    })
  })
}

type QaRecord = { QUESTION: string; CONTEXTS: string[]; LABELS: string[]; LONG_ANSWER: string; MESHES?: string[] }
function readPubmedQa(text: string): PaperInput[] {
  const body = JSON.parse(text) as Record<string, QaRecord>
  return Object.entries(body).map(([pmid, r]) =>
    paper(`MED-${pmid}`, {
      title: plain(r.QUESTION),
      abstract: [
        ...r.CONTEXTS.map((c, i) => `${r.LABELS[i] ?? ''}: ${plain(c)}`),
        `CONCLUSIONS: ${plain(r.LONG_ANSWER)}`,
      ].join('\n'),
      // PubMedQA keeps MeSH descriptor names only: no major flags, no publication types.
      meshHeadings: (r.MESHES ?? []).map((descriptor) => ({ descriptor, major: false, qualifiers: [] })),
    }),
  )
}

type Work = {
  id: string
  title?: string | null
  type?: string
  ids: { pmid?: string }
  host_venue?: { display_name?: string | null }
  abstract_inverted_index?: Record<string, number[]> | null
  mesh?: { descriptor_name: string; qualifier_name: string | null; is_major_topic: boolean }[]
  concepts?: unknown
}
const OPENALEX_TYPES: Record<string, string> = {
  'journal-article': 'Journal Article',
  review: 'Review',
  editorial: 'Editorial',
  letter: 'Letter',
  erratum: 'Published Erratum',
}

/** A SYNERGY release zip: works_*.json files of OpenAlex works, read in name order. */
function readSynergyZip(bytes: Uint8Array): PaperInput[] {
  const zip = unzipSync(bytes)
  return readWorks(
    Object.keys(zip)
      .sort()
      .flatMap((name) => JSON.parse(strFromU8(zip[name])) as Work[]),
  )
}

function readWorks(works: Work[]): PaperInput[] {
  const papers = works.map((w) => {
    const words: string[] = []
    for (const [word, positions] of Object.entries(w.abstract_inverted_index ?? {}))
      for (const p of positions) words[p] = word
    const pmid = w.ids.pmid?.split('/').pop()
    const mesh: MeshHeading[] = []
    for (const m of w.mesh ?? []) {
      // one row per descriptor-qualifier pair
      let h = mesh.find((x) => x.descriptor === m.descriptor_name)
      if (!h) mesh.push((h = { descriptor: m.descriptor_name, major: false, qualifiers: [] }))
      h.major ||= m.is_major_topic
      if (m.qualifier_name) h.qualifiers.push(m.qualifier_name)
    }
    return paper(pmid ? `MED-${pmid}` : `OA-${w.id.split('/').pop()}`, {
      title: plain(w.title ?? ''),
      abstract: plain(words.filter(Boolean).join(' ')) || null,
      journal: w.host_venue?.display_name ?? '',
      publicationTypes: w.type ? [OPENALEX_TYPES[w.type] ?? w.type] : [],
      meshHeadings: mesh,
    })
  })
  const seen = new Map<string, number>()
  for (const p of papers) seen.set(p.id, (seen.get(p.id) ?? 0) + 1)
  return papers.filter((p) => seen.get(p.id) === 1)
}

/** Every record of one fixture file (a path under ../shared/fixtures), in file order. */
export function readFile(file: string): PaperInput[] {
  const bytes = readFileSync(fixturesDir + file)
  if (file.endsWith('.zip')) return readSynergyZip(new Uint8Array(bytes))
  // literature/synergy-v1/*/works_kept.json.gz: the same OpenAlex works as one gzipped JSON array.
  if (file.endsWith('.json.gz')) return readWorks(JSON.parse(gunzipSync(bytes).toString('utf8')) as Work[])
  if (/\.xml(\.gz)?$/.test(file))
    return readMedline((file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'))
  const text = bytes.toString('utf8')
  if (file.includes('pubmedqa/')) return readPubmedQa(text)
  if (file.includes('easyner-lund-autophagy/')) return readLund(text)
  return readEuropePmc(text)
}

const cache = new Map<string, Map<string, PaperInput>>()

/** The records of a fixture file by id (the first copy wins); read once per process. */
export function recordsOf(file: string): Map<string, PaperInput> {
  let byId = cache.get(file)
  if (!byId) {
    byId = new Map()
    for (const p of readFile(file)) if (!byId.has(p.id)) byId.set(p.id, p)
    cache.set(file, byId)
  }
  return byId
}

/** A copy of the record as a paper not yet indexed would arrive: MeSH headings and the NLM chemical list withheld. */
export const withoutMesh = (p: PaperInput): PaperInput => ({ ...p, meshHeadings: [], chemicals: [] as Chemical[] })
