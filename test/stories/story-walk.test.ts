/**
 * Every story of the demo corpus after the start-up analysis, and the built-in writer's story for real fixture
 * records, read by a checker written from the taxonomy's meaning of each study type (scripts/eval/story-checker.ts):
 * design and organism words agree with the paper's study type and claims.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { runAnalysis } from '../../src/pipeline/analysis/pipeline'
import { builtinAnalyzer } from '../../src/pipeline/analysis/builtin-analyzer'
import { seedDemo } from '../../src/seed/demo'
import { checkStory } from '../../scripts/eval/story-checker'
import { fixtureFiles, fixtureRecords, summarise, walkDatabase, walkRecords } from '../../scripts/eval/story-walk'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { haveSharedFixtures, noteMissingFixtures } from '../support/shared-fixtures'

describe('the checker', () => {
  const story = (dek: string, caveats = '') => ({ headline: 'H', dek, body: 'B', whyItMatters: 'W', caveats })
  test("finds the issue's examples and passes faithful wording", () => {
    expect(
      checkStory(
        story('A clinical trial in yeast looked at restriction.'),
        'invertebrate',
        { publicationTypes: [] },
        [],
      ).map((f) => f.kind),
    ).toContain('design')
    expect(
      checkStory(story('Restriction raises healthspan in yeast.'), 'human_trial', { publicationTypes: [] }, []).map(
        (f) => f.kind,
      ),
    ).toEqual(['organism'])
    expect(
      checkStory(
        story('A clinical trial in people looked at HbA1c.'),
        'human_observational',
        { publicationTypes: ['Observational Study'] },
        [],
      ).map((f) => f.kind),
    ).toContain('design')
    expect(
      checkStory(
        story('A study in people looked at HbA1c.'),
        'human_trial',
        { publicationTypes: ['Observational Study'] },
        [],
      ),
    ).toEqual([])
    expect(
      checkStory(story('A randomised trial in people.'), 'human_trial', { publicationTypes: [] }, [
        { organism: 'Saccharomyces cerevisiae', evidence: 'Restriction improves healthspan in older adults.' },
      ]).map((f) => f.kind),
    ).toEqual(['organism'])
    expect(
      checkStory(
        story('An animal study in mice.', 'Rapamycin could be tested in people.'),
        'animal',
        { publicationTypes: [] },
        [
          { organism: 'Mus musculus', evidence: 'Rapamycin extended lifespan.' },
          { organism: 'Saccharomyces cerevisiae', evidence: 'It works from yeast to primates.' },
        ],
      ),
    ).toEqual([])
  })
})

describe(`the demo corpus after the start-up analysis, on ${testDriver}`, () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await freshDatabase()
    await seedDemo(database)
    await runAnalysis(database.db, builtinAnalyzer()) // what the analysis job does at start-up
  }, 600_000) // 2,000 papers and 130 analyses: a minute on a quiet machine, several on a loaded one
  afterAll(async () => {
    await database.close()
  })

  test("every story, published or held, agrees with its paper's study type and claims", async () => {
    const summary = summarise(await walkDatabase(database))
    expect(summary.stories).toBeGreaterThan(150)
    expect(
      summary.failures.map(
        (f) => `${f.id} [${f.studyType}] ${f.headline}: ${f.findings.map((x) => x.problem).join('; ')}`,
      ),
    ).toEqual([])
  })

  test('MED-1010000985, a randomised trial in 787 adults, is a trial in people, not in yeast', async () => {
    const [story] = await database.rows<{ headline: string; dek: string; caveats: string }>(
      sql`select headline, dek, caveats from stories where paper_id = 'MED-1010000985'`,
    )
    expect(story.headline).toEndWith('in people')
    expect(`${story.headline} ${story.dek} ${story.caveats}`).not.toMatch(/yeast/i)
    expect(story.caveats).toContain('randomised trial in people')
    const organisms = await database.rows<{ organism: string }>(
      sql`select organism from claims where paper_id = 'MED-1010000985' and evidence not ilike '%yeast%'`,
    )
    expect(organisms.map((c) => c.organism)).toEqual(organisms.map(() => 'Homo sapiens'))
  })
})

noteMissingFixtures('story walk')
describe.skipIf(!haveSharedFixtures)('the built-in writer on real fixture records', () => {
  test("every story written for 40 records of each EasyNER and SYNERGY file agrees with the analysis's study type and claims", () => {
    const walked = fixtureFiles().flatMap((file) => walkRecords(fixtureRecords(file, 40)))
    const summary = summarise(walked)
    expect(summary.stories).toBeGreaterThan(300)
    expect(
      summary.failures.map(
        (f) => `${f.id} [${f.studyType}] ${f.headline}: ${f.findings.map((x) => x.problem).join('; ')}`,
      ),
    ).toEqual([])
  }, 300_000)
})
