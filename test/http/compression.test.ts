import { describe, expect, test } from 'bun:test'
import { chooseEncoding, matchesEtag } from '../../src/http/compression'

describe('chooseEncoding reads Accept-Encoding', () => {
  test.each([
    [null, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0, br;q=0', null],
    ['BR', 'br'],
    ['*', 'br'],
    ['*, br;q=0', 'gzip'],
    ['gzip;q=abc', null],
    ['deflate', null],
  ] as const)('%p chooses %p', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected)
  })
})

describe('matchesEtag compares weakly, as RFC 9110 asks for GET', () => {
  const etag = 'W/"abc"'
  test.each([
    ['W/"abc"', true],
    ['"abc"', true],
    ['"x", W/"abc"', true],
    ['*', true],
    ['"abcd"', false],
    ['', false],
    [null, false],
  ] as const)('%p matches: %p', (header, expected) => {
    expect(matchesEtag(header, etag)).toBe(expected)
  })
})
