/**
 * How many requests each tier may make (docs/contract-decisions.md, "Rate-limit windows"). Members share
 * one allowance across all the keys of their account, so extra keys do not buy extra requests; pro
 * allowances are per key, because pro keys are handed out one per product or group.
 */
import type { Allowance } from '../../../rate-limit/store'

export const ALLOWANCES = {
  member: { perMinute: 60, perDay: 1000 },
  pro: { perMinute: 600, perDay: 50000 },
} as const satisfies Record<string, Allowance>

export type Tier = keyof typeof ALLOWANCES

/** The bucket a request counts against: `account:<id>` for members, `key:<keyId>` for pro. */
export function bucketFor({
  tier,
  accountId,
  keyId,
}: {
  tier: Tier
  accountId: number | string
  keyId: string
}): string {
  return tier === 'pro' ? `key:${keyId}` : `account:${accountId}`
}
