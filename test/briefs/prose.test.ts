/**
 * Briefs an editor would send: the built-in composer's prose on the demo corpus and on
 * every item of the real feeds: no ids in sentences, no template phrasing, each statement naming its
 * source, feed text quoted as the feed's words, and notices set apart from the findings.
 */
import { describe, expect, test } from 'bun:test'
import { composeBrief, NOTICES_HEADING, quote } from '../../src/pipeline/briefs/compose'
import type { BriefStatement } from '../../src/db/schema'
import { haveSharedFixtures, noteMissingFixtures } from '../support/shared-fixtures'
import { demoPapers, fixtureFeedItems, materialOf } from './prose-material'

noteMissingFixtures('brief prose')

const papers = demoPapers(600)
const items = haveSharedFixtures ? await fixtureFeedItems() : []
const material = {
  ...materialOf(papers.slice(0, 40), items),
  disagreements: [
    { subject: 'rapamycin', object: 'lifespan', up: 3, down: 2, groupId: 'c9270590d810eb9ba', paperId: papers[0]!.id },
  ],
}
const draft = composeBrief(material, 'A week')
const findings = draft.sections.filter((s) => s.heading !== NOTICES_HEADING)
const all: BriefStatement[] = [...draft.summary, ...draft.sections.flatMap((s) => s.statements)]
const byRef = new Map<string, { source: string; title: string }>([
  ...material.papers.map((p) => [p.ref, { source: p.journal, title: p.title }] as const),
  ...[...material.articles, ...material.notices].map((a) => [a.ref, { source: a.source, title: a.title }] as const),
])

describe('the built-in brief on the demo corpus and the real feeds', () => {
  test('has papers, feed articles, notices and a disagreement to write about', () => {
    expect(material.papers.length).toBe(40)
    if (haveSharedFixtures) {
      expect(material.articles.length).toBeGreaterThan(1000)
      expect(material.notices.length).toBeGreaterThan(5)
    }
  })

  test('writes no ids into its sentences: a contradiction is cited and linked, not named', () => {
    for (const s of all) expect(s.text).not.toMatch(/\b(?:MED|PPR|PMC)-?\d{3,}|\bc[0-9a-f]{16}\b|\(contradiction\b/)
    const disagreement = draft.sections.find((s) => s.heading === 'Where papers disagree')!.statements[0]!
    expect(disagreement.citations).toEqual(['P1', 'C1'])
    expect(disagreement.text).toStartWith(
      'Papers disagree on whether rapamycin raises or lowers lifespan: 3 report an increase and 2 a decrease under comparable conditions, among them ',
    )
  })

  test('reads naturally: no template phrases, labels before a colon, or doubled words', () => {
    for (const s of all) {
      const ours = s.text.replace(/“[^”]*”/g, '“…”') // quotations are the sources' words, typos and all
      expect(ours).not.toMatch(/of the literature|published studies of|\b(\w+) \1\b/i)
      expect(s.text).not.toMatch(/^(?:[A-Z][a-z]+ )?(?:study|trial|review|paper)(?: \(preprint\))?:/i) // "Invertebrate study (preprint): ..."
      expect(s.text).toMatch(/[.!?…]["”’)]?$/)
      const startsWithSource = s.citations.some((r) => byRef.has(r) && s.text.startsWith(byRef.get(r)!.source)) // "bioRxiv", "medRxiv"
      if (!startsWithSource) expect(s.text.charAt(0)).toBe(s.text.charAt(0).toUpperCase())
    }
  })

  test('every statement names the journal or feed of something it cites', () => {
    for (const s of all) {
      if (s.citations.every((r) => r.startsWith('C'))) continue
      expect(s.citations.some((r) => byRef.has(r) && s.text.includes(byRef.get(r)!.source))).toBe(true)
    }
  })

  test("feed text is quoted as its feed's words, never stated", () => {
    for (const s of all.filter((x) => x.citations[0]!.startsWith('A'))) {
      const item = byRef.get(s.citations[0]!)!
      expect(s.text).toStartWith(`${item.source} posted `)
      expect(s.text).toContain(`“${quote(item.title).slice(1, 60)}`)
      expect(s.text.split('“').length).toBe(s.text.split('”').length) // every quotation closed
    }
  })

  test.skipIf(!haveSharedFixtures)('notices are set apart: never findings, never the summary', () => {
    const notices = new Set(material.notices.map((a) => a.ref))
    for (const s of [...draft.summary, ...findings.flatMap((x) => x.statements)])
      expect(s.citations.some((r) => notices.has(r))).toBe(false)
    const section = draft.sections.find((s) => s.heading === NOTICES_HEADING)!
    expect(section.statements.map((s) => s.citations[0])).toEqual(material.notices.map((a) => a.ref))
    expect(section.statements.map((s) => s.text)).toContain(
      'many-links posted a registration notice: “GTAC 2017 - Registration is open!”',
    )
  })

  test("the demo corpus's stories say what a review does in one phrase", () => {
    const deks = demoPapers(2000).flatMap((p) => (p.story ? [p.story.dek] : []))
    expect(deks.length).toBeGreaterThan(20)
    for (const dek of deks) expect(dek).not.toMatch(/of the literature|studies of the/)
    expect(deks.some((d) => d.startsWith('A review of published studies concludes that '))).toBe(true)
  })
})
