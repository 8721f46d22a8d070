import { describe, it } from '@jest/globals';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'test/support/expect';

interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
}

/** The bench's reader, loaded as the bench loads it (CommonJS, outside the build). */
const { chargedSamples } = createRequire(__filename)(join(process.cwd(), 'bench', 'cpu-profile.js')) as {
  chargedSamples(
    profile: CpuProfile,
    counted: (frame: CallFrame) => boolean,
  ): { busy: number; charged: number };
};

const frame = (functionName: string, url = ''): CallFrame => ({ functionName, url });
const SERVICE = 'file:///srv/dist/src/platform/http/send-json.js';
const TRACING = 'file:///srv/node_modules/@opentelemetry/api/build/src/api/trace.js';
const isTracing = (callFrame: CallFrame) => callFrame.url.includes('/@opentelemetry/');

/**
 * root ─┬─ (idle)                      id 2
 *       ├─ (garbage collector)         id 3
 *       ├─ (program)                   id 8
 *       ├─ handle (service)            id 4 ─┬─ getActiveSpan (tracing)  id 5 ── Map.get (V8)        id 6
 *       │                                    └─ writev (node:net)        id 7
 *       └─ processTicksAndRejections   id 9 ── with (tracing)            id 10 ─┬─ handle (service)  id 11
 *                                                                               └─ emit (node:async_hooks) id 12
 */
const profile = (samples: number[]): CpuProfile => ({
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 3, 8, 4, 9] },
    { id: 2, callFrame: frame('(idle)') },
    { id: 3, callFrame: frame('(garbage collector)') },
    { id: 4, callFrame: frame('handle', SERVICE), children: [5, 7] },
    { id: 5, callFrame: frame('getActiveSpan', TRACING), children: [6] },
    { id: 6, callFrame: frame('get') },
    { id: 7, callFrame: frame('writev', 'node:net') },
    { id: 8, callFrame: frame('(program)') },
    {
      id: 9,
      callFrame: frame('processTicksAndRejections', 'node:internal/process/task_queues'),
      children: [10],
    },
    { id: 10, callFrame: frame('with', TRACING), children: [11, 12] },
    { id: 11, callFrame: frame('handle', SERVICE) },
    { id: 12, callFrame: frame('emit', 'node:internal/async_hooks') },
  ],
  samples,
});

describe("the bench's CPU profile reader", () => {
  it('charges a sample to the innermost code of the service or a package, V8 builtins and Node internals to their caller', () => {
    expect(chargedSamples(profile([5, 6, 6, 4, 7]), isTracing)).toEqual({ busy: 5, charged: 3 });
    // Node's internals under tracing code are tracing's.
    expect(chargedSamples(profile([12, 12, 11]), isTracing)).toEqual({ busy: 3, charged: 2 });
  });

  it('reads a file given as an absolute path as code of its own', () => {
    // Under the service's `handle`: were it not read as code of its own, it would be charged there.
    const absolute = profile([13]);
    absolute.nodes.push({
      id: 13,
      callFrame: frame('startSpan', '/srv/node_modules/@opentelemetry/sdk-trace/build/Tracer.js'),
    });
    absolute.nodes[3].children!.push(13);
    expect(chargedSamples(absolute, isTracing)).toEqual({ busy: 1, charged: 1 });
  });

  it('does not charge the work that code called to it: a span wrapping the request is not the request', () => {
    expect(chargedSamples(profile([11, 11, 10]), isTracing)).toEqual({ busy: 3, charged: 1 });
  });

  it('counts the garbage collector and native work as busy and charged to nobody, and idle samples not at all', () => {
    expect(chargedSamples(profile([2, 2, 2, 3, 3, 8, 1, 5]), isTracing)).toEqual({ busy: 5, charged: 1 });
  });
});
