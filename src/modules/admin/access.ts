/**
 * Who may call what under /api (docs/contract-decisions.md, "Roles"): the login and this interface's OpenAPI
 * document need no session; logout, me and a caller's own keys need any signed-in account; every
 * other path, unknown ones included, is for operators. New areas are operator-only without saying
 * so: a path has to be listed here to be opened wider.
 */
export type Access = 'public' | 'signed-in' | 'operator'

const PUBLIC = new Set([
  'POST /api/auth/login',
  'GET /api/openapi.json',
  'HEAD /api/openapi.json',
  'GET /api/docs',
  'HEAD /api/docs',
])
const SIGNED_IN = [/^\/api\/auth(\/|$)/, /^\/api\/keys(\/|$)/]

export function accessFor(method: string, path: string): Access {
  if (PUBLIC.has(`${method} ${path}`)) return 'public'
  if (SIGNED_IN.some((pattern) => pattern.test(path))) return 'signed-in'
  return 'operator'
}

/** Whether a path belongs to the admin interface (everything under /api except the Data API). */
export function isAdminPath(path: string): boolean {
  if (path !== '/api' && !path.startsWith('/api/')) return false
  return path !== '/api/v1' && !path.startsWith('/api/v1/')
}

/** Methods that change something: their requests must come from our own pages (see same-origin.ts). */
export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
