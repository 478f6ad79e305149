// The entity key of a MeSH heading (type mesh), shared by real ingestion (src/pipeline/ingest/europepmc/store.ts) and
// the synthetic corpus (src/seed/), so both name a heading's entity alike.

/** 'Epigenesis, Genetic' -> 'epigenesis-genetic'. */
export function meshKey(descriptor: string): string {
  return descriptor
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}
