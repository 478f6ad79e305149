/**
 * What a password must be, wherever one is set (a new account, a change, an operator's reset): long enough to resist
 * guessing, short enough that hashing it costs no more than any other.
 */
export const MIN_PASSWORD_LENGTH = 10
/** Longer passwords are refused rather than hashed: a megabyte "password" would only cost us time. */
export const MAX_PASSWORD_LENGTH = 1024

/** Why `password` cannot be used, naming it as `name`; null when it can. */
export function passwordProblem(password: string, name = 'password'): string | null {
  if (password.trim().length < MIN_PASSWORD_LENGTH) {
    return `${name} must be at least ${MIN_PASSWORD_LENGTH} characters long`
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    const [most, got] = [MAX_PASSWORD_LENGTH, password.length].map((n) => n.toLocaleString('en'))
    return `${name} must be at most ${most} characters long (got ${got})`
  }
  if (password.includes('\0')) return `${name} must not contain the NUL character (\\u0000)`
  return null
}
