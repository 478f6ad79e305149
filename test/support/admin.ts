/**
 * The admin interface under test: an app with a clock the test moves (sessions, rate limits) and
 * TRUST_PROXY=1, so each test can speak from its own client address through X-Forwarded-For and
 * stay clear of the others' per-address limit. `api.call` signs requests with a session cookie.
 */
import { afterAll, beforeAll, expect } from 'bun:test'
import type { AppContext } from '../../src/modules/app-context'
import { createAccount, type Membership, type Role } from '../../src/accounts/accounts'
import { SESSION_COOKIE } from '../../src/modules/admin/auth/cookie'
import { freshDatabase, type TestDatabase } from './database'
import { testApp } from './app'

export type Clock = { now: () => Date; advance: (ms: number) => void; set: (iso: string) => void }

export function testClock(start = Date.now()): Clock {
  let t = start
  return {
    now: () => new Date(t),
    advance: (ms) => {
      t += ms
    },
    set: (iso) => {
      t = Date.parse(iso)
    },
  }
}

export type CallOptions = {
  method?: string
  body?: unknown // sent as JSON
  raw?: BodyInit // sent as it is
  cookie?: string | null // a session token, or a whole Cookie header when it contains "="
  address?: string // X-Forwarded-For (TRUST_PROXY=1 in these apps)
  headers?: Record<string, string>
}

let addressSerial = 0
/** A client address no other test in this process uses. */
export const freshAddress = () => {
  const n = ++addressSerial
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
}

export function adminRequest(path: string, options: CallOptions = {}, base = 'https://geroscope.test'): Request {
  const headers: Record<string, string> = { ...options.headers }
  if (options.body !== undefined) headers['content-type'] ??= 'application/json'
  if (options.cookie)
    headers.cookie = options.cookie.includes('=') ? options.cookie : `${SESSION_COOKIE}=${options.cookie}`
  if (options.address) headers['x-forwarded-for'] = options.address
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
  return new Request(`${base}${path}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  })
}

/** The session token a response's Set-Cookie carries ('' when it clears the cookie), or null without one. */
export function sessionFrom(response: Response): string | null {
  const header = response.headers.get('set-cookie')
  if (!header) return null
  const match = new RegExp(`${SESSION_COOKIE}=([^;]*)`).exec(header)
  return match ? match[1] : null
}

export type AdminApi = {
  database: TestDatabase
  app: Awaited<ReturnType<typeof testApp>>
  clock: Clock
  call: (path: string, options?: CallOptions) => Promise<Response>
  /** Creates an account and returns its credentials. */
  account: (role: Role, membership?: Membership) => Promise<{ id: number; username: string; password: string }>
  /** Logs in (from a fresh address unless given) and returns the session token. */
  login: (username: string, password: string, address?: string) => Promise<string>
  /** A new operator, or member, signed in. */
  operator: () => Promise<{ id: number; username: string; token: string }>
  member: (membership?: Membership) => Promise<{ id: number; username: string; token: string }>
}

let accountSerial = 0

export function useAdminApp(
  env: Record<string, string> = {},
  extra: (database: TestDatabase) => Partial<Omit<AppContext, 'database' | 'config'>> = () => ({}),
): AdminApi {
  const api = {} as AdminApi
  beforeAll(async () => {
    api.database = await freshDatabase()
    api.clock = testClock()
    api.app = await testApp(api.database, { now: api.clock.now, ...extra(api.database) }, { TRUST_PROXY: '1', ...env })
  })
  afterAll(async () => {
    await api.database.close()
  })
  api.call = (path, options = {}) =>
    api.app.handle(adminRequest(path, { address: options.address ?? freshAddress(), ...options }))
  api.account = async (role, membership = 'active') => {
    const username = `${role}-${process.pid}-${++accountSerial}`
    const password = `password-${accountSerial}-long enough`
    const account = await createAccount(api.database.db, { username, password, role, membership })
    return { id: account.id, username, password }
  }
  api.login = async (username, password, address) => {
    const response = await api.call('/api/auth/login', {
      body: { username, password },
      address: address ?? freshAddress(),
    })
    expect(response.status).toBe(200)
    const token = sessionFrom(response)
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    return token!
  }
  const signedIn = async (role: Role, membership: Membership = 'active') => {
    const { id, username, password } = await api.account(role, membership)
    return { id, username, token: await api.login(username, password) }
  }
  api.operator = () => signedIn('admin')
  api.member = (membership = 'active') => signedIn('member', membership)
  return api
}
