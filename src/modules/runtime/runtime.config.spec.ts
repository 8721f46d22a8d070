import { describe, expect, it } from '@jest/globals';
import { ConfigError } from 'src/platform/config/config-schema';
import { RuntimeConfig } from 'src/modules/runtime/runtime.config';

describe('RuntimeConfig', () => {
  it('applies defaults when nothing is set', () => {
    expect(RuntimeConfig.from({})).toEqual({
      runs: {
        heartbeatMs: 5_000,
        staleAfterMs: 30_000,
        claimPollMs: 1_000,
        localModelChunkDelayMs: 25,
        drainMs: 15_000,
        concurrency: 8,
        startsAtOnce: 8,
      },
      runBudget: { maxModelCalls: 64, maxToolCalls: 128 },
      modelCalls: { maxOutputTokens: null, retryBudget: 6 },
      tools: { maxCallsPerStep: 8, approvalTimeoutMs: 600_000, approvalPollMs: 1_000, runAgentMaxDepth: 2 },
      clientServers: { timeoutMs: 600_000, requestsWaitMs: 60_000, connectTimeoutMs: 10_000 },
    });
  });

  it('reads the runs, their budget, the tool-call policy and the client-side servers', () => {
    expect(
      RuntimeConfig.from({
        RUN_HEARTBEAT_MS: '200',
        RUN_STALE_AFTER_MS: '60000',
        RUN_DRAIN_MS: '0',
        LOCAL_MODEL_CHUNK_DELAY_MS: '0',
        RUN_CONCURRENCY: '32',
        RUN_STARTS_AT_ONCE: '2',
        RUN_MAX_MODEL_CALLS: '10',
        RUN_MAX_TOOL_CALLS: '20',
        RUN_MAX_OUTPUT_TOKENS: '4096',
        RUN_MODEL_RETRY_BUDGET: '0',
        TOOL_MAX_CALLS_PER_STEP: '3',
        TOOL_APPROVAL_TIMEOUT_MS: '60000',
        TOOL_APPROVAL_POLL_MS: '100',
        RUN_AGENT_MAX_DEPTH: '5',
        CLIENT_MCP_SERVER_TIMEOUT_MS: '30000',
        CLIENT_MCP_REQUESTS_WAIT_MS: '5000',
        CLIENT_MCP_CONNECT_TIMEOUT_MS: '2000',
      }),
    ).toEqual({
      runs: {
        heartbeatMs: 200,
        staleAfterMs: 60_000,
        claimPollMs: 1_000,
        drainMs: 0,
        localModelChunkDelayMs: 0,
        concurrency: 32,
        startsAtOnce: 2,
      },
      runBudget: { maxModelCalls: 10, maxToolCalls: 20 },
      modelCalls: { maxOutputTokens: 4_096, retryBudget: 0 },
      tools: { maxCallsPerStep: 3, approvalTimeoutMs: 60_000, approvalPollMs: 100, runAgentMaxDepth: 5 },
      clientServers: { timeoutMs: 30_000, requestsWaitMs: 5_000, connectTimeoutMs: 2_000 },
    });
  });

  const refused: [Record<string, string>, RegExp][] = [
    [{ RUN_CONCURRENCY: '0' }, /^RUN_CONCURRENCY must be an integer between 1 and 10000/],
    [{ RUN_MAX_MODEL_CALLS: '0' }, /^RUN_MAX_MODEL_CALLS must be an integer between 1 and 100000/],
    [{ RUN_MAX_TOOL_CALLS: 'many' }, /^RUN_MAX_TOOL_CALLS must be an integer between 1 and 100000/],
    [{ RUN_MAX_OUTPUT_TOKENS: '0' }, /^RUN_MAX_OUTPUT_TOKENS must be an integer between 1 and 1000000/],
    [{ RUN_MODEL_RETRY_BUDGET: '101' }, /^RUN_MODEL_RETRY_BUDGET must be an integer between 0 and 100/],
    [{ RUN_HEARTBEAT_MS: '1s' }, /^RUN_HEARTBEAT_MS must be a number of milliseconds/],
    [
      { LOCAL_MODEL_CHUNK_DELAY_MS: '10001' },
      /^LOCAL_MODEL_CHUNK_DELAY_MS must be an integer between 0 and 10000/,
    ],
    [{ TOOL_MAX_CALLS_PER_STEP: '65' }, /^TOOL_MAX_CALLS_PER_STEP must be an integer between 1 and 64/],
    [{ RUN_AGENT_MAX_DEPTH: '6' }, /^RUN_AGENT_MAX_DEPTH must be an integer between 1 and 5/],
    [
      { CLIENT_MCP_SERVER_TIMEOUT_MS: '10m' },
      /^CLIENT_MCP_SERVER_TIMEOUT_MS must be a number of milliseconds/,
    ],
  ];
  for (const [env, message] of refused) {
    it(`refuses ${JSON.stringify(env)} with a line naming the variable`, () => {
      expect(() => RuntimeConfig.from(env)).toThrow(ConfigError);
      expect(() => RuntimeConfig.from(env)).toThrow(message);
    });
  }
});
