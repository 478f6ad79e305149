/**
 * The ways a caller may name a paper in batch lookups and in /papers/{id}: its own id (MED-123,
 * PPR-45, any case), `doi:10.x/...` (any case, as DOIs are case-insensitive) or `pmid:123`, which is
 * the Europe PMC id MED-123. Anything else is a 400 naming the parameter and the value.
 */
import { invalidParameter, quoted } from '../../../http/errors'
import { normalisePaperId } from '../../../resources/papers/queries'

export type PaperIdentifier = { kind: 'id'; id: string } | { kind: 'doi'; doi: string }

export const IDENTIFIER_FORMS = 'a paper id (MED-39172536, PPR-841231), doi:10.xxxx/... or pmid:39172536'

// A DOI is "10." + registrant code + "/" + suffix; the suffix may hold any printable character.
const DOI = /^10\.\d{4,9}(\.\d+)*\/\S+$/
const PMID = /^[1-9]\d{0,11}$/

/** The identifier `raw` names, or null when it has none of the accepted forms. */
export function readPaperIdentifier(raw: string): PaperIdentifier | null {
  const colon = raw.indexOf(':')
  const prefix = colon === -1 ? '' : raw.slice(0, colon).toLowerCase()
  const rest = raw.slice(colon + 1)
  if (prefix === 'doi') return DOI.test(rest) && rest.length <= 300 ? { kind: 'doi', doi: rest.toLowerCase() } : null
  if (prefix === 'pmid') return PMID.test(rest) ? { kind: 'id', id: `MED-${rest}` } : null
  const id = normalisePaperId(raw)
  return id ? { kind: 'id', id } : null
}

/** As readPaperIdentifier, but a value of no accepted form is a 400 that names `name`. */
export function parsePaperIdentifier(raw: string, name: string): PaperIdentifier {
  const identifier = readPaperIdentifier(raw)
  if (!identifier) throw invalidParameter(`${name} must be ${IDENTIFIER_FORMS} (got ${quoted(raw)})`)
  return identifier
}

/** True when `raw` uses one of the prefixed forms (doi:, pmid:) rather than a paper id. */
export const isPrefixedIdentifier = (raw: string) => /^(doi|pmid):/i.test(raw)
