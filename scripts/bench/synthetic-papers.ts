/** The analyzer benchmarks' synthetic set: 2,000 papers of the seed's corpus (seed 1), as the analyzer reads them. */
import { generateCorpus } from '../../src/seed/corpus'

export function syntheticPapers() {
  return [...generateCorpus({ papers: 2000, seed: 1, endDate: '2026-11-01' })].map(({ paper }) => ({
    id: paper.id,
    title: paper.title,
    abstract: paper.abstract,
    journal: paper.journal,
    preprint: paper.preprint,
    publicationTypes: paper.publicationTypes,
    meshHeadings: paper.meshHeadings,
    keywords: paper.keywords,
    chemicals: paper.chemicals,
  }))
}
