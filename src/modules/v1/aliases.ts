/**
 * Operations that answer exactly what a list endpoint answers for one of its parameters, under their
 * own path: GET /papers/batch (= /papers?ids=) and GET /papers/changes, /stories/changes and
 * /claims/changes (= the list with updated_since). The list keeps answering those parameters, byte for
 * byte as before; the new paths give each answer shape an operation of its own in the OpenAPI document,
 * so the list's documented answer is the page alone and generated clients need not narrow it
 * (docs/contract-decisions.md, "One shape per operation").
 */
import { invalidParameter } from '../../http/errors'
import { queryEntries } from '../../http/percent-decoding'

export type ListContext = { request: Request; set: { headers: Record<string, unknown> } }

/** `handler` for requests that give `name`: without it a 400 naming it, and with any of `refused` a 400 naming that. */
export function requiring<C extends ListContext, R>(name: string, refused: string[], handler: (context: C) => R) {
  return (context: C): R => {
    const given = new Set(queryEntries(context.request.url).map((e) => e.name))
    const path = new URL(context.request.url).pathname
    if (!given.has(name)) throw invalidParameter(`${name} is required on ${path}`)
    const clash = refused.filter((n) => given.has(n))
    if (clash.length > 0) throw invalidParameter(`${path} does not take ${clash.join(', ')}`)
    return handler(context)
  }
}

/** The sentence a list operation's description ends with: where its other answer shapes are documented. */
export const ALSO_ON_LIST = (batch: string | null, feed: string) =>
  `Older forms of the same path answer other shapes and keep working byte for ` +
  `byte: ${batch ? `ids= answers as ${batch} does, ` : ''}` +
  `updated_since answers as ${feed} does, and fields= as the same path under /api/v1/sparse does; each of those is ` +
  `documented there, ` +
  'with its own answer schema, so that this operation has one answer shape.'
