/**
 * A strict parser for `<command words> --flag value ...`: unknown flags, missing values and
 * repeated flags are errors, so a typo never silently runs the wrong thing.
 */
export type FlagSpec = { required?: boolean; values?: readonly string[]; integer?: { min: number; max: number } }

export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export type ParsedFlags = Record<string, string | undefined>

export function parseFlags(args: string[], spec: Record<string, FlagSpec>): ParsedFlags {
  const flags: ParsedFlags = {}
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`)
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2)
    if (!(name in spec)) {
      const known = Object.keys(spec)
        .map((f) => `--${f}`)
        .join(', ')
      throw new UsageError(`unknown option --${name}${known ? ` (expected ${known})` : ''}`)
    }
    if (flags[name] !== undefined) throw new UsageError(`--${name} is given twice`)
    const value = inline ?? args[++i]
    if (value === undefined || (inline === undefined && value.startsWith('--'))) {
      throw new UsageError(`--${name} needs a value`)
    }
    flags[name] = value
  }
  for (const [name, rule] of Object.entries(spec)) {
    const value = flags[name]
    if (value === undefined) {
      if (rule.required) throw new UsageError(`--${name} is required`)
      continue
    }
    if (rule.values && !rule.values.includes(value)) {
      throw new UsageError(`--${name} must be one of ${rule.values.join(', ')} (got "${value}")`)
    }
    if (rule.integer) {
      const n = Number(value)
      if (!/^\d+$/.test(value) || n < rule.integer.min || n > rule.integer.max) {
        throw new UsageError(
          `--${name} must be a whole number from ${rule.integer.min} to ${rule.integer.max} (got "${value}")`,
        )
      }
    }
  }
  return flags
}
