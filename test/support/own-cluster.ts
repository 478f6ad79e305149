/**
 * A PostgreSQL cluster of a test's own, on a spare port, for what must never be done to the shared
 * server (stopping it, putting it into recovery). initdb refuses to run as root, so as root the
 * cluster belongs to the `postgres` user. Needs PostgreSQL's server binaries (initdb, pg_ctl):
 * `ownClusterSupport()` says why a test must be left out when they are missing.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, chownSync, writeFileSync, appendFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

function binDir(): string | null {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return null
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions.length ? join(root, versions[0], 'bin') : null
}

/** Null when a cluster can be made here, else why not. */
export function ownClusterSupport(): string | null {
  if (!binDir()) return 'PostgreSQL server binaries (initdb, pg_ctl) are not installed'
  if (process.getuid?.() === 0 && !Bun.which('runuser')) return 'running as root without runuser'
  return null
}

async function sparePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

export class OwnCluster {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly bin: string,
  ) {}

  /** initdb into a fresh directory (trust authentication, user postgres); not started. */
  static async create(): Promise<OwnCluster> {
    const bin = binDir()
    if (!bin) throw new Error(ownClusterSupport()!)
    const dir = mkdtempSync(join(tmpdir(), 'geroscope-cluster-'))
    const cluster = new OwnCluster(dir, await sparePort(), bin)
    if (process.getuid?.() === 0) chownSync(dir, uidOf('postgres'), gidOf('postgres'))
    await cluster.run('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'])
    appendFileSync(
      join(dir, 'data', 'postgresql.conf'),
      `\nport = ${cluster.port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${dir}'\nfsync = off\n`,
    )
    return cluster
  }

  /**
   * A streaming replica of `primary` (which must run): `pg_basebackup -R` into a fresh directory,
   * on a spare port of its own; not started.
   */
  static async replicaOf(primary: OwnCluster): Promise<OwnCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'geroscope-replica-'))
    const replica = new OwnCluster(dir, await sparePort(), primary.bin)
    if (process.getuid?.() === 0) chownSync(dir, uidOf('postgres'), gidOf('postgres'))
    await replica.run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      join(dir, 'data'),
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
      '--no-sync',
    ])
    // The copied postgresql.conf names the primary's port and socket directory; later lines win.
    replica.configure(`port = ${replica.port}\nunix_socket_directories = '${dir}'`)
    return replica
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`
  }

  /** Appends settings to postgresql.conf (e.g. `hot_standby = off`). */
  configure(lines: string): void {
    appendFileSync(join(this.dir, 'data', 'postgresql.conf'), `\n${lines}\n`)
  }

  /** Makes the next start a standby: it stays in recovery, waiting for WAL that never comes. */
  makeStandby(): void {
    writeFileSync(join(this.dir, 'data', 'standby.signal'), '')
    if (process.getuid?.() === 0)
      chownSync(join(this.dir, 'data', 'standby.signal'), uidOf('postgres'), gidOf('postgres'))
  }

  async start(): Promise<void> {
    await this.run('pg_ctl', ['-D', join(this.dir, 'data'), '-l', join(this.dir, 'log'), '-w', '-t', '60', 'start'])
  }

  async stop(): Promise<void> {
    await this.run('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'immediate', '-w', 'stop']).catch(() => {})
  }

  /** Stops the cluster if it runs and deletes its files. */
  async destroy(): Promise<void> {
    await this.stop()
    rmSync(this.dir, { recursive: true, force: true })
  }

  private async run(tool: string, args: string[]): Promise<void> {
    const command = [join(this.bin, tool), ...args]
    const child = Bun.spawn(process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', ...command] : command, {
      stdout: 'pipe',
      stderr: 'pipe',
      cwd: this.dir,
    })
    const [out, err, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ])
    if (code !== 0) throw new Error(`${tool} failed (${code}): ${err || out}`)
  }
}

function idOf(flag: '-u' | '-g', user: string): number {
  const result = Bun.spawnSync(['id', flag, user])
  return Number(result.stdout.toString().trim())
}
const uidOf = (user: string) => idOf('-u', user)
const gidOf = (user: string) => idOf('-g', user)
