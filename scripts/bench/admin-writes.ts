/**
 * Load from operators for scripts/soak-memory.ts: each client logs in on /api/auth/login with its
 * own operator account and, with the session cookie and the service's own Origin (what the admin
 * gate's cross-site check asks of a write: src/modules/admin/same-origin.ts), cycles through writes:
 * add an RSS source, change it, list the sources, delete it, edit a system prompt, list the prompts.
 * Requests are paced to `perMinute` per account, under the admin limit of 100 a minute. The prompts
 * get their original text back when the load stops. The service must run with SCRAPE_ALLOW_PRIVATE=on:
 * the sources' URLs are local (and the sources disabled), so nothing is fetched and no DNS is asked.
 */
import type { LoadLoop } from './mcp-batches'

export type Operator = { username: string; password: string }

export type AdminTally = {
  requests: number
  byStatus: Record<string, number>
  serverErrors: number
  unexpected: number // neither the success nor a 429
  logins: number
  samples: string[]
}

type Prompt = { id: string; text: string }

const JSON_BODY = { 'content-type': 'application/json' }

export const emptyAdminTally = (): AdminTally => ({
  requests: 0,
  byStatus: {},
  serverErrors: 0,
  unexpected: 0,
  logins: 0,
  samples: [],
})

class Session {
  private cookie = ''
  constructor(
    private url: string,
    private operator: Operator,
    private tally: AdminTally,
  ) {}

  async login(): Promise<void> {
    const response = await fetch(`${this.url}/api/auth/login`, {
      method: 'POST',
      headers: JSON_BODY,
      body: JSON.stringify(this.operator),
    })
    if (response.status !== 200) {
      throw new Error(`login as ${this.operator.username}: ${response.status} ${await response.text()}`)
    }
    this.cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    this.tally.logins++
  }

  /** One request, tallied; `expect` is its success status. Logs in again once if the session is gone. */
  async send(method: string, path: string, expect: number, body?: unknown): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${this.url}${path}`, {
        method,
        headers: { cookie: this.cookie, origin: this.url, ...(body === undefined ? {} : JSON_BODY) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      if (response.status === 401 && attempt === 0) {
        await this.login()
        continue
      }
      this.tally.requests++
      this.tally.byStatus[response.status] = (this.tally.byStatus[response.status] ?? 0) + 1
      if (response.status >= 500) this.tally.serverErrors++
      else if (response.status !== expect && response.status !== 429) this.tally.unexpected++
      if (response.status !== expect && response.status !== 429 && this.tally.samples.length < 5) {
        this.tally.samples.push(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`)
      }
      return response.status === expect ? JSON.parse(text) : null
    }
  }
}

/** `operators.length` clients cycling through admin writes until stopped. */
export async function adminWrites(
  url: string,
  operators: Operator[],
  perMinute: number,
): Promise<LoadLoop<AdminTally>> {
  const tally = emptyAdminTally()
  const sessions = operators.map((o) => new Session(url, o, tally))
  for (const s of sessions) await s.login()
  const listed = (await sessions[0].send('GET', '/api/prompts', 200)) as { data: Prompt[] } | null
  if (!listed) throw new Error('GET /api/prompts failed')
  const originals = listed.data.map((p) => ({ id: p.id, text: p.text }))
  let running = true
  const gap = 60_000 / perMinute

  const client = async (session: Session, c: number) => {
    let last = performance.now()
    const paced = async <T>(request: () => Promise<T>): Promise<T> => {
      const wait = last + gap - performance.now()
      if (wait > 0) await Bun.sleep(wait)
      last = performance.now()
      return request()
    }
    for (let n = 0; running; n++) {
      const tag = `soak-${c}`
      const created = (await paced(() =>
        session.send('POST', '/api/sources', 201, {
          name: `Soak feed ${c}-${n}`,
          url: `http://127.0.0.1:9/soak-${process.pid}-${c}-${n}.xml`,
          enabled: false,
          tags: [tag],
        }),
      )) as { data: { id: number } } | null
      if (created) {
        await paced(() =>
          session.send('PATCH', `/api/sources/${created.data.id}`, 200, {
            name: `Soak feed ${c}-${n} (renamed)`,
            tags: [tag, `n${n % 7}`],
            enabled: false,
          }),
        )
        await paced(() => session.send('GET', '/api/sources', 200))
        await paced(() => session.send('DELETE', `/api/sources/${created.data.id}`, 200))
      }
      const prompt = originals[(n + c) % originals.length]
      await paced(() =>
        session.send('PUT', `/api/prompts/${encodeURIComponent(prompt.id)}`, 200, {
          text: `${prompt.text}\n\n(soak edit ${c}-${n})`,
        }),
      )
      await paced(() => session.send('GET', '/api/prompts', 200))
    }
  }
  const done = Promise.all(sessions.map((s, c) => client(s, c)))
  return {
    tally,
    stop: async () => {
      running = false
      await done
      for (const p of originals) {
        for (let attempt = 0; attempt < 60; attempt++) {
          // past the minute's allowance: wait for it
          if (await sessions[0].send('PUT', `/api/prompts/${encodeURIComponent(p.id)}`, 200, { text: p.text })) break
          await Bun.sleep(1000)
        }
      }
    },
  }
}
