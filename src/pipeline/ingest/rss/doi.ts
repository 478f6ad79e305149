/** DOIs inside feed items: in links (doi.org, publisher paths, %2F-escaped), identifiers and text. */
const DOI = /\b(10\.\d{4,9}\/[^\s"'<>]+)/i

function clean(candidate: string): string {
  // Sentences and markup end DOIs; a publisher URL may continue with a path or query.
  let doi = candidate.replace(/[?#].*$/, '').replace(/&(?:amp;)?[a-z]+=.*$/i, '')
  doi = doi.replace(/\/(?:full|abstract|pdf|epdf|html|meta|summary)(?:\/.*)?$/i, '')
  doi = doi.replace(/(?:\.full|\.pdf|\.abstract)$/i, '')
  while (/[.,;:)\]}]$/.test(doi)) {
    if (doi.endsWith(')') && (doi.match(/\(/g)?.length ?? 0) >= (doi.match(/\)/g)?.length ?? 0)) break
    doi = doi.slice(0, -1)
  }
  return doi.toLowerCase()
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text.replace(/%2f/gi, '/')
  }
}

/** Longer is no DOI (real ones stay under 200 characters), and would not fit the DOI indexes. */
export const MAX_DOI_LENGTH = 300

/** The first DOI found in the given texts, in order; null when none holds one. */
export function findDoi(...texts: Array<string | null | undefined>): string | null {
  for (const text of texts) {
    if (typeof text !== 'string' || !text) continue
    const match = decoded(text).match(DOI)
    if (match) {
      const doi = clean(match[1])
      if (doi.length <= MAX_DOI_LENGTH && /^10\.\d{4,9}\/\S+$/.test(doi)) return doi
    }
  }
  return null
}
