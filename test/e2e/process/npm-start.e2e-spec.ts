import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from 'src/platform/net/free-port';
import { tempDataDir } from 'test/support/service-process';
import { TEST_ENV } from 'test/support/test-database';
import { until } from 'test/support/until';

/** Whether a process of this id still runs (a zombie is reaped by its new parent, PID 1, at once). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A supervisor that started `npm start` signals npm, not the service: the signal must reach the
 * service, which stops as it does on its own SIGTERM, and leave no process behind.
 */
describe('npm start', () => {
  it('hands SIGTERM to the service, which shuts down gracefully and leaves no orphan', async () => {
    const build = process.env[TEST_ENV.serviceBuild]!;
    const npm = process.env.npm_execpath;
    expect(npm).toBeDefined();
    // The project as npm sees it, with the build the specs run standing for `dist/`.
    const project = await mkdtemp(join(tmpdir(), 'wa-npm-start-'));
    const dataDir = await tempDataDir();
    await copyFile(join(dirname(build), 'package.json'), join(project, 'package.json'));
    await symlink(join(dirname(build), 'node_modules'), join(project, 'node_modules'));
    await symlink(build, join(project, 'dist'));
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    };
    delete env.DATABASE_URL;
    // `prestart` builds; the build is already there.
    const child = spawn(process.execPath, [npm!, 'start', '--ignore-scripts'], {
      cwd: project,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const npmExited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let servicePid: number | null = null;
    try {
      await until(
        () =>
          fetch(`http://127.0.0.1:${port}/healthz`).then(
            (res) => res.status,
            () => 0,
          ),
        (status) => status === 200,
        60_000,
      );
      const started = output.split('\n').find((line) => line.includes('Workspace Agent API on Node'));
      servicePid = (JSON.parse(started!) as { pid: number }).pid;
      expect(servicePid).not.toBe(child.pid);

      child.kill('SIGTERM');
      await npmExited;
      await until(
        async () => alive(servicePid!),
        (running) => !running,
        30_000,
      );
      expect(output).toContain('"msg":"Shutting down"');
      expect(output).not.toMatch(/"level":(50|60)/);
    } finally {
      if (servicePid !== null && alive(servicePid)) process.kill(servicePid, 'SIGKILL');
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(project, { recursive: true, force: true });
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
