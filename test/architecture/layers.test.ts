// Runs the layer checker (scripts/check-layers.ts) over src/, so a change that makes an import point up the layers,
// closes an import circle or leaves a stale exception in its list fails the suite as well as `npm run lint`.
import { describe, expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { checkLayers, importsOf, violations } from '../../scripts/check-layers'

describe('layers', () => {
  test('every import under src/ points down the layers', () => {
    expect(checkLayers(resolve(import.meta.dir, '../..'))).toEqual([])
  })

  test('reads static, re-export, side-effect and dynamic imports, not comments', () => {
    const text = [
      "import { a } from './a'",
      "import type { B } from '../b'",
      "export * from './c'",
      "import './d'",
      "const e = await import('./e')",
      "// import { f } from './f'",
      "import { g } from 'elysia'",
    ].join('\n')
    expect(importsOf(text)).toEqual(['./a', '../b', './c', './d', './e'])
  })

  test('flags each rule on a made-up graph', () => {
    const graph = new Map([
      ['src/db/open.ts', ['src/http/errors.ts']],
      ['src/http/errors.ts', ['src/modules/site/render.ts']],
      ['src/modules/site/render.ts', ['src/db/open.ts']],
      ['src/pipeline/ingest/store.ts', ['src/seed/mesh.ts']],
      ['src/seed/mesh.ts', ['src/pipeline/ingest/store.ts']],
    ])
    expect([...violations(graph).values()].sort()).toEqual([
      'import circle',
      'import circle',
      'src/db/ imports more than itself and the base; src/http/ imported from below HTTP',
      'src/modules/ imported from below HTTP',
      'src/seed/ imported from real code',
      'top-level folders import each other',
    ])
  })
})
