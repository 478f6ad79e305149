/**
 * What the stored documents' version checks fingerprint (src/documents/papers.ts, claims.ts): a paper
 * row using every field of its shape, and FNV-1a over what a serializer writes for it. A release whose serializer
 * writes something else gets another version, and its start-up makes the stored documents stale.
 */
import type { PaperDetail } from '../resources/papers/queries'

export const FINGERPRINT_PAPER: PaperDetail['paper'] = {
  id: 'MED-1',
  source: 'MED',
  doi: '10.1/x',
  title: 'T',
  authors: 'A',
  journal: 'J',
  publishedDate: '2020-01-02',
  indexedDate: '2020-01-03',
  preprint: false,
  publicationTypes: ['research-article'],
  url: 'https://e/x',
  abstract: 'B',
  abstractLicense: 'cc by',
  relevance: 2,
  relevanceConfidence: 0.5,
  newsworthiness: 1,
  studyType: 'mouse',
  studyTypeConfidence: 0.5,
  topic: 'senolytics',
  topicConfidence: 0.5,
  promotional: 0.1,
  judgementModel: 'm',
  judgementPromptVersion: 'v',
  judgedAt: '2020-01-03 00:00:00+00',
  extractedAt: '2020-01-03 00:00:00+00',
}

/** `format:hash`: the storage format's number and FNV-1a of `text`. */
export function fingerprint(format: number, text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0
  return `${format}:${hash.toString(16)}`
}
