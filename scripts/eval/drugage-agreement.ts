/**
 * Lifespan evidence against DrugAge, as /api/v1/evidence answers it. The real literature records
 * (../shared/fixtures/literature and PubMedQA's abstracts, read by scripts/lexicon/literature.ts; not the
 * Europe PMC files kept for independent checks: europepmc/, europepmc-agpl/, europepmc-mixed-core-150.json)
 * go into a fresh database and through the built-in analysis, as the service would store them. Then, for
 * every compound the extracted claims name that DrugAge also tested, the evidence query for
 * (compound, lifespan) is read (src/resources/evidence/queries.ts, the endpoint's own query), and each organism group
 * is compared with DrugAge's results for that compound and species:
 *
 * - DrugAge's direction for a pair: the sign of the median average (else maximum) lifespan change over its
 *   results; no_change when the median is 0 or no result has a number.
 * - The evidence's direction for a pair: the direction with the most claims among the pair's groups that
 *   state one (a tie is "mixed", which agrees with nothing).
 *
 *   bun scripts/eval/drugage-agreement.ts [--list]                 # in-memory PGlite
 *   DATABASE_URL=postgres://... bun scripts/eval/drugage-agreement.ts   # a scratch PostgreSQL database (emptied first)
 */
import { sql } from 'drizzle-orm'
import { builtinAnalyzer } from '../../src/pipeline/analysis/builtin-analyzer'
import { runAnalysis } from '../../src/pipeline/analysis/pipeline'
import { openDatabase } from '../../src/db/client'
import { migrateDatabase } from '../../src/db/migrate'
import { papers } from '../../src/db/schema'
import { curatedNamed } from '../../src/lexicon/lexicon'
import { evidenceGroups } from '../../src/resources/evidence/queries'
import { haveLiterature, readLiterature } from '../lexicon/literature'
import { drugAgeResults } from '../lexicon/sources'
import { drugAgeCompoundKeys, median, sign, species } from '../lexicon/drugage-keys'

if (!haveLiterature) {
  console.log('drugage-agreement: ../shared/fixtures/literature is missing; nothing to compare')
  process.exit(0)
}
const list = process.argv.includes('--list')

const compoundKey = drugAgeCompoundKeys()
/** `${lexicon key}|${species}` -> the lifespan changes DrugAge records. */
const drugAge = new Map<string, number[]>()
for (const r of drugAgeResults()) {
  const key = compoundKey.get(r.compoundId)
  if (!key) continue
  const pair = `${key}|${species(r.species)}`
  const change = r.avgChange ?? r.maxChange
  drugAge.set(pair, change === null ? (drugAge.get(pair) ?? []) : [...(drugAge.get(pair) ?? []), change])
}
const testedCompounds = new Set([...drugAge.keys()].map((pair) => pair.split('|')[0]))

/** The species names (lower case, two words) a claim's organism stands for: every scientific name of its lexicon organism. */
function speciesOf(organism: string): string[] {
  const entry = curatedNamed('organism', organism)
  const names = entry ? [entry.name, ...entry.synonyms] : [organism]
  return [...new Set(names.filter((n) => /^[A-Z][a-z]+ [a-z]+/.test(n) || n === organism).map(species))]
}

// The records, as unjudged papers for the analysis to judge and extract.
const records = readLiterature(true).filter((r) => /^(MED|PPR)-\d+$/.test(r.id))
const url = process.env.DATABASE_URL?.trim()
const database = url ? await openDatabase({ kind: 'postgres', url, max: 2 }) : await openDatabase({ kind: 'pglite' })
await migrateDatabase(database, url)
const db = database.db
await db.execute(sql`truncate papers cascade`)
const rows = records.map((r) => ({
  id: r.id,
  source: r.id.slice(0, 3),
  doi: null,
  title: r.title || '(untitled)',
  authors: '',
  journal: r.journal,
  publishedDate: null,
  indexedDate: '2026-01-01',
  preprint: r.preprint,
  publicationTypes: r.publicationTypes,
  url: `https://europepmc.org/article/${r.id.replace('-', '/')}`,
  abstract: r.abstract,
  abstractLicense: null,
  meshHeadings: r.meshHeadings,
  keywords: r.keywords,
  chemicals: r.chemicals,
}))
for (let at = 0; at < rows.length; at += 500) await db.insert(papers).values(rows.slice(at, at + 500))
const analysed = await runAnalysis(db, builtinAnalyzer())

// The compounds the claims name as a subject that DrugAge tested, each asked about lifespan as the endpoint asks.
const subjects =
  (await db.execute(sql`select distinct e.key, e.name from claims c join entities e on e.id = c.subject_entity_id
  where e.type = 'intervention' order by e.key`)) as unknown as
    | { rows?: { key: string; name: string }[] }
    | { key: string; name: string }[]
const compounds = (Array.isArray(subjects) ? subjects : (subjects.rows ?? [])).filter((s) => testedCompounds.has(s.key))

const counts = {
  compounds: compounds.length,
  withLifespanEvidence: 0,
  groups: 0,
  groupsWithOrganism: 0,
  pairs: 0,
  agree: 0,
  disagree: 0,
  mixed: 0,
}
const lines: string[] = []
for (const compound of compounds) {
  const groups = await evidenceGroups(db, { subject: compound.key, object: 'lifespan' })
  if (groups.length) counts.withLifespanEvidence++
  counts.groups += groups.length
  // Per species: the claim counts of each direction the groups state.
  const bySpecies = new Map<string, Map<string, number>>()
  for (const g of groups) {
    if (!g.organism) continue
    counts.groupsWithOrganism++
    for (const s of speciesOf(g.organism)) {
      if (!drugAge.has(`${compound.key}|${s}`) || !g.direction) continue
      const directions = bySpecies.get(s) ?? new Map<string, number>()
      directions.set(g.direction, (directions.get(g.direction) ?? 0) + g.claimCount)
      bySpecies.set(s, directions)
    }
  }
  for (const [s, directions] of bySpecies) {
    counts.pairs++
    const ranked = [...directions].sort((a, b) => b[1] - a[1])
    const said = ranked.length > 1 && ranked[0][1] === ranked[1][1] ? 'mixed' : ranked[0][0]
    const changes = drugAge.get(`${compound.key}|${s}`)!
    const recorded = changes.length ? sign(median(changes)) : 'no_change'
    if (said === 'mixed') counts.mixed++
    else if (said === recorded) counts.agree++
    else counts.disagree++
    lines.push(
      `${said === recorded ? 'agree   ' : 'DISAGREE'} | ${compound.name} (${compound.key}) | ${s} | evidence ${said} (${ranked.map(([d, n]) => `${d} ${n}`).join(', ')}) | DrugAge ${recorded} (${changes.length} results, median ${changes.length ? median(changes) : '–'}%)`,
    )
  }
}
const pct = (a: number, b: number) => (b ? `${a} / ${b} (${((100 * a) / b).toFixed(0)}%)` : `${a} / 0`)
console.log(
  `${database.driver}: ${records.length} records analysed (${analysed.papers} papers, ${analysed.claims} claims)`,
)
console.log(
  `compounds named as a claim subject that DrugAge tested: ${counts.compounds}; with lifespan evidence: ${counts.withLifespanEvidence}`,
)
console.log(`evidence groups: ${counts.groups}, of which with an organism: ${counts.groupsWithOrganism}`)
console.log(`(compound, species) pairs in both the evidence (with a direction) and DrugAge: ${counts.pairs}`)
console.log(
  `  direction agrees: ${pct(counts.agree, counts.pairs)}; disagrees: ${counts.disagree}; evidence split evenly: ${counts.mixed}`,
)
if (list) for (const line of lines) console.log(line)
if (process.argv.includes('--claims')) {
  // What the compounds' claims about life span look like, whether or not the evidence query counts them.
  const about =
    await db.execute(sql`select e.key as subject, c.relation, c.object_text as object, oe.type || '/' || oe.key as "objectEntity",
      c.organism, c.direction from claims c join entities e on e.id = c.subject_entity_id left join entities oe on oe.id = c.object_entity_id
    where e.type = 'intervention' and (c.relation ilike '%lifespan%' or c.object_text ~* 'life ?span|longevity|surviv') order by 1, 2`)
  for (const r of (Array.isArray(about) ? about : (about as { rows: unknown[] }).rows) as Record<string, unknown>[])
    console.log(JSON.stringify(r))
}
await database.close()
