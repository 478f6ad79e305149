/**
 * The session cookie: httpOnly (page scripts never see it), SameSite=Lax (other sites' forms and
 * fetches do not carry it), Path=/api (only the interfaces read it), Secure when the request came
 * over https or the service's public URL is https, and a Max-Age of the absolute session lifetime
 * (the idle expiry is the server's to enforce).
 */
import { parseCookie, stringifySetCookie } from 'cookie'

export const SESSION_COOKIE = 'geroscope_session'

/** The session token the request carries, if any (the first one when a client sent several). */
export function sessionToken(request: Request): string | null {
  const header = request.headers.get('cookie')
  if (!header) return null
  try {
    return parseCookie(header)[SESSION_COOKIE] ?? null
  } catch {
    return null
  }
}

/** Whether cookies must be Secure: https on the way in, or an https public URL (TLS ended at a proxy). */
export function secureCookies(request: Request, publicBaseUrl: string): boolean {
  return request.url.startsWith('https:') || publicBaseUrl.startsWith('https:')
}

export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return stringifySetCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/api',
    maxAge: maxAgeSeconds,
  })
}

/** Tells the browser to drop the cookie (logout, or a cookie that names no live session). */
export function clearedSessionCookie(secure: boolean): string {
  return stringifySetCookie(SESSION_COOKIE, '', {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/api',
    maxAge: 0,
    expires: new Date(0),
  })
}
