/**
 * The export directory: the files of at most two complete runs and their manifests. A run's files
 * are written under temporary names and renamed into place when complete; its manifest is renamed
 * into place last, which is the moment the run becomes the one served. The manifest of the run
 * before stays beside it (manifest-previous.json) with its files, so a download in progress
 * (resumed with Range requests) can finish after a new run lands. Only names of this shape are
 * ever written, read or deleted here, so EXPORT_DIR pointed at a directory with other files in it
 * loses none of them.
 */
import { open, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { EXPORT_RESOURCES, type ExportResource } from './resources'

export type ExportFileEntry = {
  resource: ExportResource
  file: string // name in the export directory, and in the download URL
  count: number // lines (items) in the file
  bytes: number // size of the .gz file
  sha256: string // of the .gz file, hex
  /** The same items as CSV (gzip-compressed); absent in manifests of runs that wrote none. */
  csv?: { file: string; bytes: number; sha256: string }
}

export type Manifest = {
  format: 1
  generated_at: string // the snapshot the files were read in (transaction start), ISO 8601 UTC
  finished_at: string
  files: ExportFileEntry[]
}

export const MANIFEST = 'manifest.json'
export const PREVIOUS_MANIFEST = 'manifest-previous.json'
export const TEMP_PREFIX = '.tmp-'

const DATA_FILE = new RegExp(`^(${EXPORT_RESOURCES.join('|')})-\\d{8}T\\d{9}Z-[0-9a-f]{8}\\.(ndjson|csv)\\.gz$`)

/**
 * `papers-20261124T020000123Z-1a2b3c4d.ndjson.gz` (or `.csv.gz`): the snapshot's time, and a random
 * part so two runs never share a name.
 */
export function dataFileName(
  resource: ExportResource,
  generatedAt: Date,
  random: string,
  format: 'ndjson' | 'csv' = 'ndjson',
): string {
  return `${resource}-${generatedAt.toISOString().replace(/[-:.]/g, '')}-${random}.${format}.gz`
}

/** Every data file a manifest names: each resource's NDJSON and, when written, its CSV. */
export const manifestFiles = (manifest: Manifest | null): string[] =>
  manifest?.files.flatMap((f) => (f.csv ? [f.file, f.csv.file] : [f.file])) ?? []

export const isDataFileName = (name: string) => DATA_FILE.test(name)

/** A manifest as written, or null when there is none (no run has completed) or it is not one of ours. */
export async function readManifest(dir: string, name = MANIFEST): Promise<Manifest | null> {
  let text: string
  try {
    text = await readFile(join(dir, name), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  const manifest = JSON.parse(text) as Manifest
  const named = (f: ExportFileEntry) => isDataFileName(f.file) && (f.csv === undefined || isDataFileName(f.csv.file))
  if (manifest?.format !== 1 || !Array.isArray(manifest.files) || !manifest.files.every(named)) {
    throw new Error(`${join(dir, name)} is not an export manifest`)
  }
  return manifest
}

/**
 * Writes `contents` under a temporary name, flushes it to disk, then renames it to `name`: readers see the old file or
 * the new one, whole.
 */
export async function writeAtomically(dir: string, name: string, contents: string): Promise<void> {
  const temp = join(dir, `${TEMP_PREFIX}${name}`)
  await writeFile(temp, contents)
  await flushToDisk(temp)
  await rename(temp, join(dir, name))
}

export async function flushToDisk(path: string): Promise<void> {
  const handle = await open(path, 'r+')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * Deletes what a crashed run left (temporary files, data files no manifest names) and the files of
 * runs older than the previous one. Only under the export job's lock: no run is writing then.
 */
export async function removeUnlisted(dir: string, keep: Set<string>): Promise<number> {
  let removed = 0
  for (const name of await readdir(dir)) {
    const ours =
      isDataFileName(name) ||
      (name.startsWith(TEMP_PREFIX) &&
        (isDataFileName(name.slice(TEMP_PREFIX.length)) || name.slice(TEMP_PREFIX.length).startsWith('manifest')))
    if (!ours || keep.has(name)) continue
    await rm(join(dir, name), { force: true })
    removed++
  }
  return removed
}
