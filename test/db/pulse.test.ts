import { describe, expect, test } from 'bun:test'
import { DatabasePulse } from '../../src/db/pulse'

describe('DatabasePulse', () => {
  test('a check answers only with a ping begun after it was asked, and waiting checks share one', async () => {
    const started: (() => void)[] = []
    const pulse = new DatabasePulse(() => new Promise<void>((resolve) => started.push(resolve)))
    const first = pulse.check()
    const second = pulse.check() // the ping in flight began before this: it waits for the next
    const third = pulse.check()
    expect(started.length).toBe(1)
    let secondDone = false
    void second.then(() => {
      secondDone = true
    })
    started[0]()
    await first
    await Bun.sleep(0)
    expect(secondDone).toBe(false)
    expect(started.length).toBe(2) // one more ping for both waiting checks
    started[1]()
    await Promise.all([second, third])
    expect(started.length).toBe(2)
  })

  test('a failing ping fails the checks waiting on it, and the next check pings again', async () => {
    let fail = true
    const pulse = new DatabasePulse(async () => {
      if (fail) throw new Error('connection refused')
    })
    await expect(pulse.check()).rejects.toThrow('connection refused')
    fail = false
    await pulse.check()
  })
})
