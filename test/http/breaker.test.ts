/**
 * The breaker's rules on a clock the test moves (the stopped-PostgreSQL fault test, test/faults,
 * shows it on a real server): open for a second after an unavailable error, 503 with Retry-After
 * at once while open, one probe at a time, closed by a probe that answers or by time.
 */
import { describe, expect, test } from 'bun:test'
import { DatabaseBreaker } from '../../src/http/breaker'
import { ApiError } from '../../src/http/errors'

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })

function setUp() {
  let clock = 0
  const probes: { resolve: () => void; reject: (e: unknown) => void }[] = []
  const probe = () =>
    new Promise<void>((resolve, reject) => {
      probes.push({ resolve, reject })
    })
  const breaker = new DatabaseBreaker(probe, 1000, () => clock)
  const rejection = () => {
    try {
      breaker.admit()
      return null
    } catch (error) {
      return error
    }
  }
  return {
    breaker,
    probes,
    rejection,
    advance: (ms: number) => {
      clock += ms
    },
  }
}

describe('the database breaker', () => {
  test('admits everything until the database is found unavailable; other errors do not open it', () => {
    const { breaker, probes, rejection } = setUp()
    expect(rejection()).toBeNull()
    breaker.record(new Error('duplicate key value'))
    breaker.record(Object.assign(new Error('syntax error'), { code: '42601' }))
    expect(rejection()).toBeNull()
    expect(probes).toHaveLength(0)
  })

  test('while open, answers 503 unavailable with Retry-After at once and probes once', () => {
    const { breaker, probes, rejection } = setUp()
    breaker.record(refused)
    const error = rejection()
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ errorCode: 'unavailable', status: 503, headers: { 'retry-after': '5' } })
    for (let i = 0; i < 31; i++) expect(rejection()).toBeInstanceOf(ApiError)
    expect(probes).toHaveLength(1) // a burst shares one probe
  })

  test('a probe that answers closes it at once', async () => {
    const { breaker, probes, rejection } = setUp()
    breaker.record(refused)
    rejection()
    probes[0].resolve()
    await Bun.sleep(0)
    expect(rejection()).toBeNull()
  })

  test('a probe that fails keeps it open a second from the failure, then the next probe may start', async () => {
    const { breaker, probes, rejection, advance } = setUp()
    breaker.record(refused)
    advance(900)
    rejection()
    probes[0].reject(refused)
    await Bun.sleep(0)
    advance(900) // 1.8 s after the first failure, 0.9 s after the probe's
    expect(rejection()).toBeInstanceOf(ApiError)
    expect(probes).toHaveLength(2)
  })

  test('with no probe answering, it lets requests try the database again once a second has passed', () => {
    const { breaker, rejection, advance } = setUp()
    breaker.record(refused)
    advance(999)
    expect(rejection()).toBeInstanceOf(ApiError)
    advance(1)
    expect(rejection()).toBeNull()
  })
})
