#!/usr/bin/env node
// Maintainer check, not run in CI: installs the newest published @dust-tt/client in a temporary
// folder and runs the SDK e2e spec against it (jest maps the client there through DUST_CLIENT_DIR),
// so a new client release that our shapes no longer satisfy shows before a user meets it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const folder = mkdtempSync(join(tmpdir(), 'dust-client-latest-'));
try {
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      folder,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '@dust-tt/client@latest',
    ],
    { stdio: 'inherit' },
  );
  const client = join(folder, 'node_modules', '@dust-tt', 'client');
  const { version } = JSON.parse(readFileSync(join(client, 'package.json'), 'utf8'));
  console.log(`Running test/e2e/dust-client/dust-client.e2e-spec.ts against @dust-tt/client ${version}`);
  execFileSync('npm', ['run', 'test:e2e', '--', 'e2e/dust-client/dust-client\\.'], {
    stdio: 'inherit',
    env: { ...process.env, DUST_CLIENT_DIR: client },
  });
} finally {
  rmSync(folder, { recursive: true, force: true });
}
