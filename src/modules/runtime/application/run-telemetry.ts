import { Injectable } from '@nestjs/common';
import type { McpToolOutput } from 'src/platform/mcp/mcp-session';
import { Metrics } from 'src/platform/observability/metrics';
import { inSpan, startSpan } from 'src/platform/observability/spans';
import type {
  ModelChunkHandler,
  ModelProvider,
  ModelRequest,
} from 'src/modules/runtime/application/ports/model-provider';
import type { ModelProviderId } from 'src/kernel/agent-model';
import type { Run } from 'src/modules/runtime/application/run';

/** Where a tool runs, as a metric label: an internal server's name (a fixed list), or `remote`. */
export interface ToolServerOfCall {
  name: string;
  kind: 'internal' | 'remote';
}

/**
 * What the runtime tells the operator about its runs: a span for each run, model call and tool
 * call (workspace, agent, model, tool server, outcome), and their metrics. Labels stay bounded:
 * outcomes, providers, and the tool server as `ToolServerOfCall` says, never a workspace's own names.
 */
@Injectable()
export class RunTelemetry {
  private readonly runsFinished;
  private readonly modelCalls;
  private readonly modelTokens;
  private readonly toolCalls;
  private readonly toolCallDuration;

  constructor(metrics: Metrics) {
    this.runsFinished = metrics.counter(
      'agent_runs_finished_total',
      'Agent messages that got their outcome, by outcome (succeeded, failed, cancelled).',
      ['outcome'],
    );
    this.modelCalls = metrics.histogram(
      'agent_model_call_duration_seconds',
      'Model calls of agent runs, from the request to the last chunk, by provider and outcome.',
      ['provider', 'outcome'],
    );
    this.modelTokens = metrics.counter(
      'agent_model_tokens_total',
      'Tokens of model calls as providers report them, by provider and kind (prompt, completion, reasoning; reasoning tokens are part of completion tokens).',
      ['provider', 'kind'],
    );
    this.toolCalls = metrics.counter(
      'agent_tool_calls_total',
      'Tool calls of agent runs, by server (an internal server, or remote) and outcome (succeeded, failed: the tool said so, error: it could not be called).',
      ['server', 'outcome'],
    );
    this.toolCallDuration = metrics.histogram(
      'agent_tool_call_duration_seconds',
      'Duration of the tool calls of agent runs, by server (an internal server, or remote).',
      ['server'],
    );
  }

  /** The span of one run, around its generation. */
  run<T>(run: Run, work: () => Promise<T>): Promise<T> {
    return inSpan(
      'agent run',
      {
        'workspace.id': run.caller.workspaceSId,
        'agent.id': run.agent.sId,
        'agent.model': run.agent.model.modelId,
        'conversation.id': run.conversation.sId,
        'agent_message.id': run.message.sId,
      },
      work,
    );
  }

  runFinished(outcome: 'succeeded' | 'failed' | 'cancelled'): void {
    this.runsFinished.inc({ outcome });
  }

  /** The provider, its stream observed: one span and one latency per model call. */
  observedModel(providerId: ModelProviderId, provider: ModelProvider): ModelProvider {
    const { modelCalls, modelTokens } = this;
    return {
      acceptsImages: (modelId) => provider.acceptsImages(modelId),
      async stream(request: ModelRequest, signal: AbortSignal, onChunk: ModelChunkHandler): Promise<boolean> {
        const span = startSpan('model call', { 'model.provider': providerId, 'model.id': request.modelId });
        const start = performance.now();
        let outcome = 'cancelled';
        let failure: unknown;
        try {
          const ended = await provider.stream(request, signal, (chunk) => {
            if (chunk.type === 'usage') {
              const { promptTokens, completionTokens, reasoningTokens } = chunk.usage;
              modelTokens.inc({ provider: providerId, kind: 'prompt' }, promptTokens);
              modelTokens.inc({ provider: providerId, kind: 'completion' }, completionTokens);
              modelTokens.inc({ provider: providerId, kind: 'reasoning' }, reasoningTokens);
              // OpenTelemetry's names for generative AI calls, so tracing back-ends show them as such.
              span.set({
                'gen_ai.usage.input_tokens': promptTokens,
                'gen_ai.usage.output_tokens': completionTokens,
                'gen_ai.usage.reasoning_tokens': reasoningTokens,
              });
            }
            return onChunk(chunk);
          });
          if (ended) outcome = 'succeeded';
          return ended;
        } catch (error) {
          outcome = 'failed';
          failure = error;
          throw error;
        } finally {
          modelCalls.observe({ provider: providerId, outcome }, Metrics.secondsSince(start));
          span.set({ outcome });
          span.end(failure);
        }
      },
    };
  }

  /** One tool call, in its span, counted by server and outcome. */
  toolCall(
    server: ToolServerOfCall,
    toolName: string,
    call: () => Promise<McpToolOutput>,
  ): Promise<McpToolOutput> {
    const label = server.kind === 'internal' ? server.name : 'remote';
    return inSpan(
      'tool call',
      { 'tool.server': server.name, 'tool.server_kind': server.kind, 'tool.name': toolName },
      async (span) => {
        const start = performance.now();
        let outcome = 'error';
        try {
          const output = await call();
          outcome = output.isError ? 'failed' : 'succeeded';
          return output;
        } finally {
          this.toolCalls.inc({ server: label, outcome });
          this.toolCallDuration.observe({ server: label }, Metrics.secondsSince(start));
          span.set({ outcome });
        }
      },
    );
  }
}
