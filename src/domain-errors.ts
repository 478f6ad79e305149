// Failures that code below HTTP (search, briefs, the resources) reports without knowing HTTP: a caller's input that
// cannot be served, a thing that does not exist, a conflict, a dependency that cannot answer now. The error plugin
// (src/http/error-plugin.ts) answers each with the contract's envelope: invalid_input as 400 invalid_parameter,
// not_found as 404, conflict as 409, unavailable as 503 with Retry-After when one is given.
export type DomainErrorKind = 'invalid_input' | 'not_found' | 'conflict' | 'unavailable'

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message)
    this.name = 'DomainError'
  }
}

export const invalidInput = (message: string) => new DomainError('invalid_input', message)
export const nothingFound = (message: string) => new DomainError('not_found', message)
export const conflicting = (message: string) => new DomainError('conflict', message)
