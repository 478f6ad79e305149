/**
 * A permanent redirect a handler decides on deep inside (an entity asked for by another of its
 * names), thrown past the response cache and answered by the route: 308, so that the method and
 * body are kept and clients may remember the new address. Never kept in the response cache.
 */
export class PermanentRedirect extends Error {
  constructor(readonly location: string) {
    super(`moved permanently to ${location}`)
    this.name = 'PermanentRedirect'
  }
}

/**
 * `answer()`'s response, or the 308 it threw. (Typed as the answer: Elysia checks a handler's return
 * against the route's response schemas, and a Response is passed through as it is.)
 */
export async function orRedirect<T>(answer: () => Promise<T>): Promise<T> {
  try {
    return await answer()
  } catch (error) {
    if (!(error instanceof PermanentRedirect)) throw error
    return new Response(null, { status: 308, headers: { location: error.location } }) as unknown as T
  }
}
