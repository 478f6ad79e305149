/** Entities in their contract shapes; a detail's mention and description follow the abstract's licence. */
import { licenseAllowsReuse } from '../../taxonomy'
import type { PaperEntityRow, PaperRow } from '../papers/queries'
import { serializePaperRef } from '../papers/serialize'
import { entityApiUrl } from '../../public-urls'

const LICENSED_DETAIL_KEYS = ['mention', 'description']

export function serializeDetail(detail: Record<string, unknown> | null, abstractLicense: string | null) {
  if (!detail) return null
  if (licenseAllowsReuse(abstractLicense)) return Object.keys(detail).length ? detail : null
  const kept = Object.fromEntries(Object.entries(detail).filter(([k]) => !LICENSED_DETAIL_KEYS.includes(k)))
  return Object.keys(kept).length ? kept : null
}

export function serializePaperEntity(row: PaperEntityRow, abstractLicense: string | null) {
  return {
    type: row.type,
    key: row.key,
    name: row.name,
    ids: row.ids,
    role: row.role,
    detail: serializeDetail(row.detail, abstractLicense),
  }
}

export type EntityRow = { type: string; key: string; name: string; ids: Record<string, string>; paperCount: number }

export function serializeEntity(row: EntityRow, base: string) {
  return {
    type: row.type,
    key: row.key,
    name: row.name,
    ids: row.ids,
    paper_count: row.paperCount,
    api_url: entityApiUrl(base, row.type, row.key),
  }
}

/** EntityPaper: a PaperRef plus the entity's roles in that paper. */
export function serializeEntityPaper(paper: PaperRow, roles: string[], base: string) {
  return { ...serializePaperRef(paper, base), roles }
}
