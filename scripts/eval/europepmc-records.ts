/**
 * Reads the recorded Europe PMC `core` responses in ../shared/fixtures and maps each record to the
 * analyzer's input. This is the evaluation's own small mapping, kept in this one file so it can be
 * replaced by the harvester's mapping once that exists.
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { PaperInput } from '../../src/analysis/types'

export const FIXTURE_FILES = [
  'europepmc/search_cancer_core.json',
  'europepmc/search_core_openaccess_cited_range.json',
  'europepmc-agpl/search_core_autophagy_p100.json',
  'europepmc-agpl/search_core_epigenetics_p100.json',
]

export const fixturesDir = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url))
export const haveFixtures = existsSync(fixturesDir)

type RawHeading = { descriptorName: string; majorTopic_YN?: string; meshQualifierList?: { meshQualifier: { qualifierName: string }[] } }
export type RawRecord = {
  id: string
  source: string
  title?: string
  abstractText?: string
  journalInfo?: { journal?: { title?: string } }
  bookOrReportDetails?: { publisher?: string }
  pubTypeList?: { pubType: string[] | string }
  meshHeadingList?: { meshHeading: RawHeading[] }
  keywordList?: { keyword: string[] }
  chemicalList?: { chemical: { name: string; registryNumber?: string }[] }
  license?: string
}

export const paperId = (r: RawRecord) => `${r.source}-${r.id.replace(/^[A-Z]+/, '')}`

/** Abstracts arrive with HTML tags (<h4>, <i>, <sup>); the analyzer reads plain text. */
export function plainText(html: string): string {
  return html.replace(/<\/(h\d|p|div)>/gi, ' ').replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim()
}

export function toPaperInput(r: RawRecord): PaperInput {
  const types = r.pubTypeList?.pubType ?? []
  return {
    id: paperId(r),
    title: plainText(r.title ?? ''),
    abstract: r.abstractText ? plainText(r.abstractText) : null,
    journal: r.journalInfo?.journal?.title ?? r.bookOrReportDetails?.publisher ?? '',
    preprint: r.source === 'PPR',
    publicationTypes: Array.isArray(types) ? types : [types],
    meshHeadings: (r.meshHeadingList?.meshHeading ?? []).map((h) => ({
      descriptor: h.descriptorName,
      major: h.majorTopic_YN === 'Y',
      qualifiers: (h.meshQualifierList?.meshQualifier ?? []).map((q) => q.qualifierName),
    })),
    keywords: r.keywordList?.keyword ?? [],
    chemicals: (r.chemicalList?.chemical ?? []).map((c) => ({ name: c.name, registry: c.registryNumber && c.registryNumber !== '0' ? c.registryNumber : null })),
  }
}

/** Every core record of the fixture files, by paper id (the first copy wins). */
export function readRecords(): Map<string, RawRecord> {
  const byId = new Map<string, RawRecord>()
  for (const file of FIXTURE_FILES) {
    const body = JSON.parse(readFileSync(fixturesDir + file, 'utf8')) as { resultList: { result: RawRecord[] } }
    for (const r of body.resultList.result) if (!byId.has(paperId(r))) byId.set(paperId(r), r)
  }
  return byId
}
