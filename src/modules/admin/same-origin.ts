/**
 * Cross-site request refusal for state-changing requests (docs/contract-decisions.md, "Sessions"). SameSite=Lax
 * already keeps the cookie off other sites' POSTs; this is the second lock, for browsers or paths
 * where that does not hold. A request must name our own origin in Origin, or, without Origin, in
 * Referer: the public base URL's origin, or the origin the request itself was sent to.
 *
 * A request with neither header is let through. Browsers send Origin with every cross-origin
 * request that can change state (fetch, XHR, form posts), so a request without it did not come from
 * another site's page; it comes from a program (curl, a script), which holds the cookie itself and
 * is no forgery. Refusing it would break those clients and protect nothing.
 */
export function crossSiteRefusal(request: Request, publicBaseUrl: string): string | null {
  const ours = new Set([new URL(publicBaseUrl).origin, new URL(request.url).origin])
  const origin = request.headers.get('origin')
  if (origin !== null) {
    return ours.has(originOf(origin) ?? '')
      ? null
      : `cross-site request refused: Origin ${origin.slice(0, 200)} is not this service's`
  }
  const referer = request.headers.get('referer')
  if (referer !== null) {
    return ours.has(originOf(referer) ?? '')
      ? null
      : 'cross-site request refused: the Referer is not a page of this service'
  }
  return null
}

function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin
    return origin === 'null' ? null : origin
  } catch {
    return null
  }
}
