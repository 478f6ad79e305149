// Checks that imports under src/ point down the layers the README describes: entry points (src/app.ts,
// src/index.ts, src/deno.ts, src/lifecycle/, src/cli/) > HTTP (src/modules/, src/http/) > domain and pipeline
// folders > src/db/ > base (src/config.ts, src/log*.ts, src/platform/). Run by `npm run lint` and by
// test/architecture/layers.test.ts; `bun scripts/check-layers.ts` prints every broken rule and exits 1.
//
// The rules:
// - no import circle between files. Type-only imports count too: `import type` is erased at run time, but a type
//   shared both ways still ties the two files together for a reader, and moving the type to the lower file (or a
//   file of its own) is always possible;
// - src/modules/ is imported only from src/modules/ and the entry points;
// - src/db/ imports only src/db/ and the base;
// - src/http/ is imported only from src/http/, src/modules/ and the entry points;
// - src/seed/ (the fake-data generator) is imported only from src/seed/ and the entry points;
// - src/jobs/ (the jobs' runner, locks and schedule) imports nothing of src/pipeline/, which it runs;
// - at most two pairs of top-level folders import each other (files at the top of src/ count as their own folder).
// Each exception stands in ALLOWED below with the reason it is kept; an exception that no longer happens is an
// error too, so the list only shrinks.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** Exceptions still allowed, one line each: `from -> to` for an import, `circle: a | b | …` for a circle (files
 * sorted), `pair: a <-> b` for top-level folders importing each other. */
export const ALLOWED: Record<string, string> = {}

/** Pairs of top-level folders allowed to import each other (at most two), with why. */
export const MUTUAL_FOLDERS: Record<string, string> = {
  'pair: pipeline/analysis <-> pipeline/stories':
    'a story is written by the built-in analyzer (src/pipeline/analysis/builtin/) and published when an analysis is stored ' +
    '(src/pipeline/analysis/store.ts): src/pipeline/stories/ sits between the two, with no circle between files. It stays a folder ' +
    'of its own because the admin routes and corrections (src/pipeline/judgements/) rewrite stories too.',
}

const ENTRY_POINTS = ['src/app.ts', 'src/index.ts', 'src/deno.ts', 'src/lifecycle/', 'src/cli/']
const BASE = ['src/config.ts', 'src/log', 'src/platform/']

const under = (file: string, prefixes: string[]) => prefixes.some((p) => file.startsWith(p))
const isEntryPoint = (file: string) => under(file, ENTRY_POINTS)

/** Every .ts/.js file below `dir`, as a path relative to `root` with forward slashes. */
function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(join(root, dir))) {
    const path = `${dir}/${name}`
    if (statSync(join(root, path)).isDirectory()) out.push(...sourceFiles(root, path))
    else if (/\.(ts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

// `import … from '…'`, `export … from '…'`, then `import '…'` and `import('…')`.
const IMPORT = new RegExp(
  [
    /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/,
    /(?:^|[\s;(=])import\s*(?:\(\s*)?['"]([^'"]+)['"]/,
  ]
    .map((r) => r.source)
    .join('|'),
  'g',
)

/** The relative specifiers a file imports (static, side-effect and literal dynamic imports). */
export function importsOf(text: string): string[] {
  const code = text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('//'))
    .join('\n')
  const out: string[] = []
  for (const m of code.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2]
    if (spec?.startsWith('.')) out.push(spec)
  }
  return out
}

function resolveImport(files: Set<string>, from: string, spec: string): string | undefined {
  const base = relative('.', resolve(dirname(from), spec)).replaceAll('\\', '/')
  const stem = base.replace(/\.(js|ts)$/, '')
  for (const c of [base, `${stem}.ts`, `${stem}.js`, `${base}/index.ts`, `${base}/index.js`]) if (files.has(c)) return c
  return undefined
}

/** The import graph of src/: file -> files it imports. */
export function importGraph(root: string): Map<string, string[]> {
  const cwd = process.cwd()
  process.chdir(root)
  try {
    const files = new Set(sourceFiles('.', 'src').map((f) => f.replace(/^\.\//, '')))
    const graph = new Map<string, string[]>()
    for (const file of files) {
      const targets = importsOf(readFileSync(file, 'utf8'))
        .map((spec) => resolveImport(files, file, spec))
        .filter((t): t is string => t !== undefined && t !== file)
      graph.set(file, [...new Set(targets)])
    }
    return graph
  } finally {
    process.chdir(cwd)
  }
}

/** Strongly connected components of more than one file (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0
  const idx = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const out: string[][] = []
  const visit = (v: string) => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!))
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        scc.push(w)
      } while (w !== v)
      if (scc.length > 1) out.push(scc.sort())
    }
  }
  for (const v of graph.keys()) if (!idx.has(v)) visit(v)
  return out
}

/** The top-level folder of a file under src/ ('db', 'modules', …; 'config.ts' for a file at the top). */
/**
 * The folder a file counts in for the pairs rule: a top-level folder of src/, except that each part of the pipeline
 * counts on its own (src/pipeline/analysis, src/pipeline/ingest), so that grouping them under one roof does not hide
 * two of them importing each other. The resources stay one folder: a paper's JSON embeds its entities and claims and
 * an entity's or a story's embeds papers, so src/resources/papers and its neighbours use each other by design.
 */
const GROUPS = new Set(['pipeline'])
const topFolder = (file: string) => {
  const [, first, second] = file.split('/')
  return GROUPS.has(first!) && second !== undefined && !second.includes('.') ? `${first}/${second}` : first!
}

/** Every rule broken today, as the keys ALLOWED uses, with the rule's name. */
export function violations(graph: Map<string, string[]>): Map<string, string> {
  const found = new Map<string, string>()
  const add = (key: string, rule: string) => found.set(key, found.has(key) ? `${found.get(key)}; ${rule}` : rule)
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const edge = `${from} -> ${to}`
      if (to.startsWith('src/modules/') && !from.startsWith('src/modules/') && !isEntryPoint(from))
        add(edge, 'src/modules/ imported from below HTTP')
      if (from.startsWith('src/db/') && !to.startsWith('src/db/') && !under(to, BASE))
        add(edge, 'src/db/ imports more than itself and the base')
      if (to.startsWith('src/http/') && !under(from, ['src/http/', 'src/modules/']) && !isEntryPoint(from))
        add(edge, 'src/http/ imported from below HTTP')
      if (to.startsWith('src/seed/') && !from.startsWith('src/seed/') && !isEntryPoint(from))
        add(edge, 'src/seed/ imported from real code')
      if (from.startsWith('src/jobs/') && to.startsWith('src/pipeline/'))
        add(edge, 'src/jobs/ (runner, locks, schedule) imports the pipeline it runs')
    }
  }
  for (const scc of circles(graph)) add(`circle: ${scc.join(' | ')}`, 'import circle')
  const folderEdges = new Set<string>()
  for (const [from, targets] of graph)
    for (const to of targets) {
      if (topFolder(from) !== topFolder(to)) folderEdges.add(`${topFolder(from)}>${topFolder(to)}`)
    }
  for (const e of folderEdges) {
    const [a, b] = e.split('>') as [string, string]
    if (a < b && folderEdges.has(`${b}>${a}`)) {
      const pair = `pair: ${a} <-> ${b}`
      if (!(pair in MUTUAL_FOLDERS)) add(pair, 'top-level folders import each other')
    }
  }
  return found
}

/** The report: broken rules not allowed, and allowed exceptions that no longer happen. */
export function checkLayers(root: string): string[] {
  const found = violations(importGraph(root))
  const errors: string[] = []
  for (const [key, rule] of found) if (!(key in ALLOWED)) errors.push(`${rule}: ${key}`)
  for (const key of Object.keys(ALLOWED))
    if (!found.has(key)) errors.push(`no longer happens, remove from ALLOWED in scripts/check-layers.ts: ${key}`)
  if (Object.keys(MUTUAL_FOLDERS).length > 2) errors.push('MUTUAL_FOLDERS holds more than two pairs')
  return errors
}

if (import.meta.main) {
  const errors = checkLayers(resolve(dirname(new URL(import.meta.url).pathname), '..'))
  for (const e of errors) console.error(e)
  if (errors.length > 0) process.exit(1)
  console.log('layers: all imports point down')
}
