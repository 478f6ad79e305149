/**
 * The console's static assets: checked-in ES modules and one stylesheet, read once at start and
 * served with an ETag, plus a vocabulary module made from the taxonomy (topics, study types, gap kinds, roles)
 * so the forms offer the values the admin interface accepts.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { GAP_KINDS } from '../../pipeline/intelligence/gaps'
import { STUDY_TYPES, STUDY_TYPE_LABELS, TOPIC_INFO } from '../../taxonomy'
import { MEMBERSHIPS, ROLES } from '../../accounts/accounts'
import { TIERS } from '../../accounts/keys'

export type Asset = { body: string; type: string; etag: string }

const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' }

const asset = (body: string, type: string): Asset => ({
  body,
  type,
  etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
})

function readTree(dir: string, prefix = ''): [string, Asset][] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return readTree(path, `${prefix}${name}/`)
    const type = TYPES[name.split('.').pop() ?? '']
    return type ? [[`${prefix}${name}`, asset(readFileSync(path, 'utf8'), type)] as [string, Asset]] : []
  })
}

const vocabulary = `// Made by the service from its taxonomy at start.
export const TOPICS = ${JSON.stringify(TOPIC_INFO.map(({ slug, name }) => ({ slug, name })))}
export const STUDY_TYPES = ${JSON.stringify(STUDY_TYPES.map((slug) => ({ slug, name: STUDY_TYPE_LABELS[slug] })))}
export const GAP_KINDS = ${JSON.stringify(GAP_KINDS)}
export const ROLES = ${JSON.stringify(ROLES)}
export const MEMBERSHIPS = ${JSON.stringify(MEMBERSHIPS)}
export const TIERS = ${JSON.stringify(TIERS)}
`

/** Every asset by its path under /console/assets/. */
export function loadAssets(): Map<string, Asset> {
  const dir = fileURLToPath(new URL('./assets/', import.meta.url))
  const assets = new Map(readTree(dir))
  assets.set('vocabulary.js', asset(vocabulary, TYPES.js))
  return assets
}
