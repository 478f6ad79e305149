/**
 * What the matcher reads in real abstracts (../shared/fixtures/literature, never the Europe PMC files
 * kept for independent checks): mentions per abstract by type and source, the most frequent
 * spellings with an example in context (to find ambiguous names for scripts/lexicon/curation.ts), and
 * a reproducible random sample of mentions to judge by hand.
 *
 *   bun scripts/lexicon/precision.ts [--top 60] [--type gene] [--source 'NCBI gene'] [--sample 50 --seed 1]
 */
import { findMentions, type Mention } from '../../src/lexicon/matcher'
import { readLiterature } from './literature'

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : undefined
}
const top = Number(arg('top') ?? 60)
const type = arg('type')
const only = arg('source') // curated, NCBI gene, model gene, DrugAge
const sample = Number(arg('sample') ?? 0)
let seed = Number(arg('seed') ?? 1)
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648

const records = readLiterature()
const source = (m: Mention) =>
  m.entry.curated
    ? 'curated'
    : m.entry.ids.taxon && m.entry.type === 'gene'
      ? 'model gene'
      : m.entry.type === 'gene'
        ? 'NCBI gene'
        : 'DrugAge'
const bySpelling = new Map<string, { n: number; docs: Set<string>; example: string }>()
const byKind = new Map<string, number>()
const all: { m: Mention; text: string; id: string }[] = []
const started = performance.now()
for (const r of records) {
  const text = `${r.title}\n\n${r.abstract}`
  for (const m of findMentions(text)) {
    byKind.set(`${m.entry.type} (${source(m)})`, (byKind.get(`${m.entry.type} (${source(m)})`) ?? 0) + 1)
    if ((type && m.entry.type !== type) || (only && source(m) !== only)) continue
    all.push({ m, text, id: r.id })
    const k = `${m.text} -> ${m.entry.type} ${m.entry.key} ${m.entry.name} [${source(m)}]`
    const s = bySpelling.get(k) ?? {
      n: 0,
      docs: new Set(),
      example: text.slice(Math.max(0, m.start - 50), m.end + 50).replace(/\s+/g, ' '),
    }
    s.n++
    s.docs.add(r.id)
    bySpelling.set(k, s)
  }
}
console.log(`${records.length} abstracts, ${((performance.now() - started) / 1000).toFixed(1)} s`)
for (const [k, n] of [...byKind].sort((a, b) => b[1] - a[1]))
  console.log(`  ${k}: ${n} mentions, ${(n / records.length).toFixed(2)} per abstract`)
console.log(`\nmost frequent${type ? ` ${type}` : ''} spellings (mentions / abstracts):`)
for (const [k, s] of [...bySpelling].sort((a, b) => b[1].docs.size - a[1].docs.size).slice(0, top)) {
  console.log(`${String(s.n).padStart(5)} ${String(s.docs.size).padStart(4)}  ${k}\n             …${s.example}…`)
}
if (sample > 0) {
  console.log(`\nrandom sample of ${sample} mentions (seed ${arg('seed') ?? 1}):`)
  for (let i = 0; i < sample && all.length; i++) {
    const { m, text, id } = all[Math.floor(random() * all.length)]
    console.log(
      `${id}  ${m.text} -> ${m.entry.type} ${m.entry.name}\n    …${text.slice(Math.max(0, m.start - 80), m.end + 60).replace(/\s+/g, ' ')}…`,
    )
  }
}
