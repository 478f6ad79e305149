import { describe, expect, test } from 'bun:test'
import { builtinAnalyzer } from '../../src/pipeline/analysis/builtin-analyzer'
import { runAnalysis } from '../../src/pipeline/analysis/pipeline'
import { req, useTestApp } from '../support/app'
import { bearer, insertPapers, paperRow } from '../support/fixtures'
import { RAPAMYCIN_MICE } from './paper-input'

const api = useTestApp()

// Analysis stores quotes from every abstract; what the API serves must follow each abstract's licence.
const LICENCES: [string, string | null, boolean][] = [
  ['MED-501', 'cc by', true],
  ['MED-502', 'cc0', true],
  ['MED-503', 'public domain', true],
  ['MED-504', 'cc by-nc', false],
  ['MED-505', 'cc by-sa', false],
  ['MED-506', null, false],
]

describe('served analysis results follow the abstract licence', () => {
  test.each(LICENCES)('%s (%s)', async (id, license, reusable) => {
    if (id === 'MED-501') {
      await insertPapers(
        api.database.db,
        LICENCES.map(([pid, lic]) =>
          paperRow({
            id: pid,
            abstractLicense: lic,
            title: RAPAMYCIN_MICE.title,
            abstract: RAPAMYCIN_MICE.abstract,
            meshHeadings: RAPAMYCIN_MICE.meshHeadings,
            judgedAt: null,
            extractedAt: null,
            relevance: null,
          }),
        ),
      )
      await runAnalysis(api.database.db, builtinAnalyzer())
    }
    const res = await api.app.handle(req(`/api/v1/papers/${id}`, bearer(api.key)))
    expect(res.status).toBe(200)
    const { data } = (await res.json()) as {
      data: { claims: { evidence: string | null }[]; entities: { detail: Record<string, unknown> | null }[] }
    }
    expect(data.claims.length).toBeGreaterThan(0)
    const quoted = data.entities.filter((e) => e.detail && ('mention' in e.detail || 'description' in e.detail))
    if (reusable) {
      expect(data.claims.every((c) => typeof c.evidence === 'string')).toBe(true)
      expect(quoted.length).toBeGreaterThan(0)
    } else {
      expect(data.claims.every((c) => c.evidence === null)).toBe(true)
      expect(quoted).toEqual([])
    }
    expect(license === null || typeof license === 'string').toBe(true)
  })
})
