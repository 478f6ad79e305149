/**
 * One bulk export run: every resource to NDJSON.gz in one snapshot, then the manifest.
 * Crash safety comes from the order of the steps, not from clean-up code: files are written under
 * temporary names, renamed into place only when all of them are complete, and the manifest that
 * names them is renamed into place last. A run killed at any point leaves the last complete export
 * served as it was; the next run deletes what the dead one left. Runs never overlap (the job lock,
 * taken by runJob for the schedule and the CLI alike).
 */
import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Database } from '../../db/client'
import type { JobCounts } from '../../jobs/job-runs'
import { NO_CONTROL, RunCancelledError, type RunControl } from '../../jobs/run-control'
import {
  dataFileName,
  manifestFiles,
  MANIFEST,
  PREVIOUS_MANIFEST,
  readManifest,
  removeUnlisted,
  TEMP_PREFIX,
  writeAtomically,
  type ExportFileEntry,
  type Manifest,
} from './manifest'
import { EXPORT_RESOURCES, exportBatches, type ExportResource } from './resources'
import { inSnapshot, type SnapshotQuery } from './snapshot'
import { writeGzipFiles } from './write-file'

export const EXPORT_JOB = 'export'
/** Nightly, at 02:30 UTC: after the day's harvests and analyses, before Europe's working day. */
export const EXPORT_CRON = '30 2 * * *'
/** Rows per keyset batch: large enough that round trips cost little, small enough to keep memory flat. */
export const EXPORT_BATCH_SIZE = 2000

export type ExportOptions = {
  batchSize?: number
  /** Told when each file is complete (the benchmark times resources with it). */
  onFile?: (entry: ExportFileEntry & { ms: number }) => void | Promise<void>
  /**
   * The run's progress (done of the resources, each one NDJSON.gz and one CSV.gz file) and its cancel: once a cancel
   * is seen no further resource is started, the files of this run are deleted and no manifest is written, so the
   * last complete export stays served; the run is recorded as cancelled with the items of the resources it wrote.
   */
  control?: RunControl
}

const filesOf = manifestFiles

export async function runExport(
  database: Database,
  settings: { exportDir: string; publicBaseUrl: string },
  options: ExportOptions = {},
): Promise<JobCounts> {
  const dir = settings.exportDir
  const batchSize = options.batchSize ?? EXPORT_BATCH_SIZE
  await mkdir(dir, { recursive: true })
  const current = await readManifest(dir)
  // What a killed run left behind, and anything no manifest names.
  const cleaned = await removeUnlisted(
    dir,
    new Set([...filesOf(current), ...filesOf(await readManifest(dir, PREVIOUS_MANIFEST))]),
  )

  const control = options.control ?? NO_CONTROL
  await control.begin(EXPORT_RESOURCES.length, 'resources')
  // The files are read in one transaction; on PGlite it holds the one connection, which a progress write would wait
  // for: there the progress is written when the transaction ends, and a cancel (only ever from this process) is seen in
  // memory.
  const viaDatabase = database.pg !== null && database.pg !== undefined
  const random = randomBytes(4).toString('hex')
  const written: string[] = [] // temporary files of this run, deleted if it fails
  const exportResource = async (
    query: SnapshotQuery,
    resource: ExportResource,
    generatedAt: Date,
  ): Promise<ExportFileEntry> => {
    const started = performance.now()
    const file = dataFileName(resource, generatedAt, random)
    const csvFile = dataFileName(resource, generatedAt, random, 'csv')
    const temps = [file, csvFile].map((name) => join(dir, TEMP_PREFIX + name))
    written.push(...temps)
    let count = 0
    const batches = exportBatches(query, resource, settings.publicBaseUrl, batchSize, (n) => {
      count += n
    })
    const [ndjson, csv] = await writeGzipFiles(temps, batches)
    const entry = { resource, file, count, ...ndjson, csv: { file: csvFile, ...csv } }
    await options.onFile?.({ ...entry, ms: performance.now() - started })
    return entry
  }
  try {
    const { generatedAt, files } = await inSnapshot(database, async (query) => {
      const [{ at }] = await query<{ at: string }>(
        `select to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at`,
        [],
      )
      const generatedAt = new Date(at)
      const files: ExportFileEntry[] = []
      for (const resource of EXPORT_RESOURCES) {
        if (await control.shouldStop(viaDatabase ? 'now' : 'memory')) {
          throw new RunCancelledError({
            ...Object.fromEntries(files.map((f) => [f.resource, f.count])),
            bytes: 0,
            removed: cleaned,
          })
        }
        files.push(await exportResource(query, resource, generatedAt))
        await control.advance(1, viaDatabase)
      }
      return { generatedAt, files }
    })

    for (const name of manifestFiles({ files } as Manifest)) {
      await rename(join(dir, TEMP_PREFIX + name), join(dir, name))
    }
    const manifest: Manifest = {
      format: 1,
      generated_at: generatedAt.toISOString(),
      finished_at: new Date().toISOString(),
      files,
    }
    if (current) await writeAtomically(dir, PREVIOUS_MANIFEST, JSON.stringify(current, null, 2) + '\n')
    await writeAtomically(dir, MANIFEST, JSON.stringify(manifest, null, 2) + '\n') // the moment this run is served
    const removed = await removeUnlisted(dir, new Set([...filesOf(manifest), ...filesOf(current)]))
    return {
      ...Object.fromEntries(files.map((f) => [f.resource, f.count])),
      bytes: files.reduce((sum, f) => sum + f.bytes, 0),
      removed: removed + cleaned,
    }
  } catch (error) {
    await Promise.all(written.map((temp) => rm(temp, { force: true }).catch(() => {})))
    throw error
  }
}
