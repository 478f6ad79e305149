/**
 * A small client for OpenAI-compatible chat completions that answer in JSON. Each answer is parsed
 * and validated by the caller's schema; a request that times out, meets 429 or a 5xx, or answers
 * something invalid is retried with exponential backoff (429 honours Retry-After), and after the
 * last attempt the task fails as a whole: nothing half-parsed ever leaves this file. A semaphore
 * keeps at most `concurrency` requests in flight; token counts add up for the run's record.
 */
import type { LlmConfig } from '../../../config'
import { storable } from '../../../db/storable-text'
import { AnalysisFailure, type Usage } from '../analyzer'

export type Validation<T> = { ok: true; value: T } | { ok: false; error: string }
export type Validator<T> = (answer: unknown) => Validation<T>

export type LlmClientOptions = LlmConfig & {
  maxAttempts?: number // including the first; default 3
  backoffMs?: number // first retry delay; doubles each time
  maxRetryAfterMs?: number // cap on a server's Retry-After
}

class Semaphore {
  private waiting: (() => void)[] = []
  private active = 0
  constructor(private readonly limit: number) {}
  async run<T>(work: () => Promise<T>): Promise<T> {
    // A released slot passes straight to the next waiter, so a newcomer can never slip in between.
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve))
    else this.active++
    try {
      return await work()
    } finally {
      const next = this.waiting.shift()
      if (next) next()
      else this.active--
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

class Retryable extends Error {
  constructor(
    message: string,
    readonly delayMs: number | null = null,
  ) {
    super(message)
  }
}

export class LlmClient {
  private readonly semaphore: Semaphore
  private readonly counts: Usage = { prompt_tokens: 0, completion_tokens: 0, requests: 0, retries: 0 }

  constructor(private readonly options: LlmClientOptions) {
    this.semaphore = new Semaphore(options.concurrency)
  }

  get model(): string {
    return this.options.model
  }

  usage(): Usage {
    return { ...this.counts }
  }

  /** Asks for a JSON object and returns it validated, or throws AnalysisFailure naming the task. */
  async completeJson<T>(task: string, system: string, user: string, validate: Validator<T>): Promise<T> {
    const attempts = this.options.maxAttempts ?? 3
    let lastError = 'no attempt made'
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) this.counts.retries++
      try {
        const content = await this.semaphore.run(() => this.request(system, user))
        let parsed: unknown
        try {
          // Storable here, once for every task: a "\u0000" in a story or claim must not fail its paper's transaction.
          parsed = storable(JSON.parse(stripFence(content)))
        } catch {
          throw new Retryable('the answer is not valid JSON')
        }
        const checked = validate(parsed)
        if (!checked.ok) throw new Retryable(`the answer does not match the ${task} schema: ${checked.error}`)
        return checked.value
      } catch (error) {
        if (!(error instanceof Retryable))
          throw new AnalysisFailure(`${task}: ${error instanceof Error ? error.message : String(error)}`, task)
        lastError = error.message
        if (attempt < attempts) await sleep(error.delayMs ?? (this.options.backoffMs ?? 500) * 2 ** (attempt - 1))
      }
    }
    throw new AnalysisFailure(`${task}: gave up after ${attempts} attempts (${lastError})`, task)
  }

  private async request(system: string, user: string): Promise<string> {
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs)
    this.counts.requests++
    try {
      let response: Response
      try {
        response = await fetch(`${this.options.baseUrl}/chat/completions`, {
          method: 'POST',
          signal: controller.signal,
          headers: {
            'content-type': 'application/json',
            ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
          },
          body: JSON.stringify({
            model: this.options.model,
            temperature: 0,
            response_format: { type: 'json_object' },
            messages: [
              { role: 'system', content: system },
              { role: 'user', content: user },
            ],
          }),
        })
      } catch (error) {
        throw new Retryable(
          controller.signal.aborted
            ? `no answer within ${this.options.timeoutMs} ms`
            : `cannot reach the model: ${error instanceof Error ? error.message : String(error)}`,
        )
      }
      if (response.status === 429) {
        const after = Number(response.headers.get('retry-after'))
        await response.body?.cancel()
        throw new Retryable(
          'rate limited (429)',
          Number.isFinite(after) && after >= 0 ? Math.min(after * 1000, this.options.maxRetryAfterMs ?? 30_000) : null,
        )
      }
      if (response.status >= 500) {
        await response.body?.cancel()
        throw new Retryable(`the model server answered ${response.status}`)
      }
      if (!response.ok) {
        const text = (await response.text().catch(() => '')).slice(0, 200)
        throw new Error(`the model server refused the request (${response.status}): ${text}`)
      }
      let body: {
        choices?: { message?: { content?: unknown } }[]
        usage?: { prompt_tokens?: number; completion_tokens?: number }
      }
      try {
        body = await response.json()
      } catch {
        throw new Retryable(
          controller.signal.aborted ? `no answer within ${this.options.timeoutMs} ms` : 'the response body is not JSON',
        )
      }
      this.counts.prompt_tokens += Number(body.usage?.prompt_tokens) || 0
      this.counts.completion_tokens += Number(body.usage?.completion_tokens) || 0
      const content = body.choices?.[0]?.message?.content
      if (typeof content !== 'string') throw new Retryable('the response has no message content')
      return content
    } finally {
      clearTimeout(timer)
    }
  }
}

/** Some models wrap JSON in a Markdown code fence despite being asked not to. */
function stripFence(content: string): string {
  const m = content.trim().match(/^```(?:json)?\s*([\s\S]*?)\s*```$/)
  return m ? m[1] : content
}
