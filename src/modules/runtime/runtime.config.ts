import { ConfigSchema, configToken } from 'src/platform/config/config-schema';
import { duration, integer } from 'src/platform/config/variables';

const runtimeConfig = ConfigSchema.of({
  runs: {
    heartbeatMs: duration('RUN_HEARTBEAT_MS', {
      default: 5_000,
      description: 'How often a process marks its running agent messages alive.',
    }),
    staleAfterMs: duration('RUN_STALE_AFTER_MS', {
      default: 30_000,
      description:
        'A running agent message without a heartbeat for this long (its process died) is taken over by another process, which resumes it from its last step.',
    }),
    claimPollMs: duration('RUN_CLAIM_POLL_MS', {
      default: 1_000,
      description:
        'How often a process with a free run slot looks for queued answers that other processes left, and for runs handed over or left by a process that stopped.',
    }),
    drainMs: integer('RUN_DRAIN_MS', {
      default: 15_000,
      min: 0,
      max: 600_000,
      description:
        'On a stop, how long the runs under way may go on to finish their answers; those still running then are handed over to another process, which resumes them. With `SHUTDOWN_GRACE_MS`, keep it under the time your orchestrator waits before killing (30 s on Kubernetes).',
    }),
    // So the built-in local model's answers stream like a real model's.
    localModelChunkDelayMs: integer('LOCAL_MODEL_CHUNK_DELAY_MS', {
      default: 25,
      min: 0,
      max: 10_000,
      description: 'Pause between the chunks of the built-in `local` model.',
    }),
    // A burst of mentions (a thousand wake-ups due together) cannot take every database connection.
    concurrency: integer('RUN_CONCURRENCY', {
      default: 8,
      min: 1,
      max: 10_000,
      description:
        'Runs a process carries out at once: a posted message (with all the agents it mentions) or a `run_agent` run past the first its asker waits for; later ones wait in turn.',
    }),
    // Starting a run is a few dozen statements; a burst of them would hold up the runs that stream.
    startsAtOnce: integer('RUN_STARTS_AT_ONCE', {
      default: 8,
      min: 1,
      max: 1_000,
      description:
        'Answers a process starts at once (creating the agent messages, reading the history, opening the tools, up to the model call); later ones wait their turn, so a burst of mentions does not hold up the answers already streaming.',
    }),
  },
  // What the whole tree of runs answering one user message may spend (each agent it mentions, and
  // every agent those ask through `run_agent`).
  runBudget: {
    maxModelCalls: integer('RUN_MAX_MODEL_CALLS', {
      default: 64,
      min: 1,
      max: 100_000,
      description:
        'Model calls the runs answering one user message may make, `run_agent` runs included; past it they fail with `run_budget_exceeded`.',
    }),
    maxToolCalls: integer('RUN_MAX_TOOL_CALLS', {
      default: 128,
      min: 1,
      max: 100_000,
      description:
        'Tool calls the runs answering one user message may make, `run_agent` runs included; past it they fail with `run_budget_exceeded`.',
    }),
  },
  modelCalls: {
    // What a model call reserves of its workspace's monthly token budget is bounded by this.
    maxOutputTokens: integer('RUN_MAX_OUTPUT_TOKENS', {
      default: null,
      min: 1,
      max: 1_000_000,
      shownDefault: '_(unset)_',
      description:
        "Tokens one model call may write, reasoning included, sent as `max_completion_tokens`; unset, none is sent and the model's own ceiling holds. Under a monthly token budget, each call reserves this much (16,384 when unset) plus its prompt's estimate before it starts.",
    }),
    // A run of many steps against a struggling endpoint would otherwise wait out every call's retries.
    retryBudget: integer('RUN_MODEL_RETRY_BUDGET', {
      default: 6,
      min: 0,
      max: 100,
      description:
        "Retries the model calls of one run may make between them (each call also at most `OPENAI_MAX_RETRIES`); once spent, a call fails with its endpoint's last reason. A `run_agent` run has its own.",
    }),
  },
  tools: {
    maxCallsPerStep: integer('TOOL_MAX_CALLS_PER_STEP', {
      default: 8,
      min: 1,
      max: 64,
      description: 'Tool calls one model step may make; calls beyond are `failed` without running.',
    }),
    approvalTimeoutMs: duration('TOOL_APPROVAL_TIMEOUT_MS', {
      default: 600_000,
      description:
        'A call waiting for approval longer than this is declined (`denied`), and the run goes on.',
    }),
    approvalPollMs: duration('TOOL_APPROVAL_POLL_MS', {
      default: 1_000,
      description:
        'How often a run waiting for approval looks for an answer given on another process (answers given on its own process wake it at once).',
    }),
    runAgentMaxDepth: integer('RUN_AGENT_MAX_DEPTH', {
      default: 2,
      min: 1,
      max: 5,
      description: 'How deep the internal `run_agent` tool may nest agents asking agents.',
    }),
  },
  // Servers a client (Dust's extension or CLI) lends to its member's runs through mcp/register.
  clientServers: {
    timeoutMs: duration('CLIENT_MCP_SERVER_TIMEOUT_MS', {
      default: 600_000,
      description:
        'A client-side MCP server whose client has not sent a heartbeat for this long is dropped, and the calls it has not answered fail.',
    }),
    requestsWaitMs: duration('CLIENT_MCP_REQUESTS_WAIT_MS', {
      default: 60_000,
      description:
        'How long one `GET mcp/requests` stream stays open waiting for tool requests before it ends with `done` (the client reconnects).',
    }),
    connectTimeoutMs: duration('CLIENT_MCP_CONNECT_TIMEOUT_MS', {
      default: 10_000,
      description:
        "How long a run waits for a client-side MCP server's handshake and tool list before it goes on without its tools.",
    }),
  },
});

/** How agent runs are carried out: heartbeats, concurrency, budgets, tool-call policy. */
export abstract class RuntimeConfig extends configToken(runtimeConfig) {}

export type RunBudgetSettings = RuntimeConfig['runBudget'];
