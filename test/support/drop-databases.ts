/**
 * Drops the databases named on the command line, one after another, on the server given first.
 * Started detached by dropTestDatabases when the server is too slow to drop them within the run.
 */
import postgres from 'postgres'

const [serverUrl, ...names] = process.argv.slice(2)
const sql = postgres(serverUrl!, { max: 1, onnotice: () => {} })
for (const name of names) {
  await sql.unsafe(`drop database if exists "${name.replaceAll('"', '""')}" with (force)`).catch(() => {})
}
await sql.end()
