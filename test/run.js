#!/usr/bin/env node
/**
 * Runs the compiled specs (`dist-test/`) on Node's test runner: `unit` (next to the code, no
 * database) or `e2e` (one PostgreSQL for the run, a migrated template, a database per file).
 */
const { spawn } = require('node:child_process');
const { readdirSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');

const root = join(__dirname, '..');
const build = join(root, 'dist-test');
/** A test that hangs fails after this instead of holding the run until CI's limit. */
const TEST_TIMEOUT_MS = Number(process.env.TEST_TIMEOUT_MS ?? 300_000);

function find(dir, suffix) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path, suffix);
    return path.endsWith(suffix) ? [path] : [];
  });
}

function runNodeTests(files, env) {
  const args = [
    '--enable-source-maps',
    '--test',
    '--test-reporter=spec',
    '--test-concurrency=2',
    `--test-timeout=${TEST_TIMEOUT_MS}`,
    ...files,
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit', env, cwd: root });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main(mode) {
  const filter = process.argv[3];
  const matches = (file) => !filter || relative(build, file).includes(filter);
  if (mode === 'unit') {
    return runNodeTests(find(join(build, 'src'), '.spec.js').filter(matches), process.env);
  }
  if (mode === 'e2e') {
    const { default: globalSetup } = require(join(build, 'test', 'support', 'global-setup.js'));
    const { default: globalTeardown } = require(join(build, 'test', 'support', 'global-teardown.js'));
    const state = await globalSetup();
    try {
      const files = find(join(build, 'test', 'e2e'), '.e2e-spec.js').filter(matches);
      return await runNodeTests(files, { ...process.env, ...state.env });
    } finally {
      await globalTeardown(state);
    }
  }
  throw new Error(`Usage: node test/run.js unit|e2e [path filter]`);
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
