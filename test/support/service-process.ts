import { ChildProcess, execFile, spawn } from 'node:child_process';
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from 'src/platform/net/free-port';
import { TEST_ENV } from 'test/support/test-database';

/** A file of the built service, which the global setup locates. */
function built(file: string): string {
  const build = process.env[TEST_ENV.serviceBuild];
  if (!build)
    throw new Error(`${TEST_ENV.serviceBuild} is not set: run e2e tests through their Jest config.`);
  return join(build, 'src', file);
}

const runFile = promisify(execFile);

/** The built service (`dist/`), run as its own process the way `npm start` runs it. */
export interface ServiceProcess {
  /** The service's process id, to read its memory from `/proc`. */
  pid: number;
  port: number;
  baseUrl: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A data directory the embedded server (possibly running as `postgres`) can use. */
export async function tempDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wa-e2e-'));
  await chmod(dir, 0o755);
  return dir;
}

function serviceEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  // A stopped process closes at once, unless a spec gives it a grace or its runs time to finish.
  return { ...base, LOG_LEVEL: 'warn', SHUTDOWN_GRACE_MS: '0', RUN_DRAIN_MS: '0', ...env };
}

export async function startService(env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child: ChildProcess = spawn(process.execPath, [built('main.js')], {
    env: serviceEnv({ ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The service exited with ${child.exitCode}:\n${output}`);
    const ready = await fetch(`${baseUrl}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The service did not answer /healthz in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    pid: child.pid!,
    port,
    baseUrl,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs the built service with `env` until it exits; for configurations it must refuse. */
export async function runServiceToExit(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [built('main.js')], {
      env: serviceEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `npm run cli -- …` against the built CLI; resolves with its exit code and outputs. */
export async function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await runFile(process.execPath, [built('cli.js'), ...args], {
      env: serviceEnv(env),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
