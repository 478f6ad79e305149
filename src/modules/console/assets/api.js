// The console's one door to data: the admin interface under /api, with the session cookie the
// browser holds (HttpOnly, Path=/api: this script never sees it). Errors arrive in the contract's
// envelope { error: { status, code, message } } and are thrown as ApiError.

export class ApiError extends Error {
  constructor(status, errorCode, message) {
    super(message)
    this.status = status
    this.errorCode = errorCode
  }
}

/**
 * Sends a request to /api and answers its JSON; a 401 for a missing or ended session sends the browser to the
 * sign-in screen (a wrong password, invalid_credentials, is the form's to show).
 */
export async function api(method, path, body) {
  const init = { method, credentials: 'same-origin', headers: { accept: 'application/json' } }
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json'
    init.body = JSON.stringify(body)
  }
  let response
  try {
    response = await fetch(path, init)
  } catch {
    throw new ApiError(0, 'network', 'the service cannot be reached; check the connection and try again')
  }
  const payload = await response.json().catch(() => null)
  if (response.ok) return payload
  const error = payload?.error
  const failure = new ApiError(response.status, error?.code ?? 'unknown', error?.message ?? `request failed with HTTP ${response.status}`)
  if (response.status === 401 && path !== '/api/auth/login' && failure.errorCode !== 'invalid_credentials') {
    location.assign(`/console/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`)
  }
  throw failure
}

export const get = (path) => api('GET', path)
export const post = (path, body) => api('POST', path, body)

/** A query string from an object, leaving out empty values; arrays become comma-separated lists. */
export function query(params) {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) continue
    search.set(name, Array.isArray(value) ? value.join(',') : String(value))
  }
  const text = search.toString()
  return text ? `?${text}` : ''
}
