import { describe, expect, it } from '@jest/globals';
import { REQUIRED_NODE_MAJOR, unsupportedNodeReason } from 'src/platform/process/node-version';

describe('the Node.js version check', () => {
  it('accepts Node 24 and later', () => {
    for (const version of ['v24.0.0', 'v24.21.0', 'v25.1.0', 'v26.10.0']) {
      expect(unsupportedNodeReason(version)).toBeNull();
    }
  });

  it('refuses older releases, naming the version it needs and the one it found', () => {
    for (const version of ['v20.20.2', 'v22.22.3', 'v23.11.1', 'v8.0.0']) {
      expect(unsupportedNodeReason(version)).toMatch(
        new RegExp(
          `^Node.js ${REQUIRED_NODE_MAJOR} or newer is required; this is ${version.replace(/\./g, '\\.')}\\.`,
        ),
      );
    }
  });

  it('refuses what it cannot read', () => {
    expect(unsupportedNodeReason('nightly')).not.toBeNull();
  });

  it('is satisfied by the Node that runs the tests', () => {
    expect(unsupportedNodeReason(process.version)).toBeNull();
  });
});
