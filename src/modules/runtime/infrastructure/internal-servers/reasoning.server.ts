import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { InternalToolContext } from 'src/modules/runtime/application/ports/internal-tool-servers';
import {
  ModelError,
  ModelProviders,
  ModelRequest,
  ModelUsage,
} from 'src/modules/runtime/application/ports/model-provider';

export interface ReasoningServerDeps {
  models: ModelProviders;
  /** The reasoning model of the openai provider (`tools.reasoningModelId`). */
  modelId: string;
  /** The most tokens its answer may take (`RUN_MAX_OUTPUT_TOKENS`); null: the model's own ceiling. */
  maxOutputTokens: number | null;
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const toolError = (message: string): CallToolResult => ({ ...text(message), isError: true });

const INSTRUCTIONS =
  'Another agent hands you a hard problem. Think it through and answer it completely and precisely.';

/**
 * A tool that hands a hard question to a reasoning model, in one call with high reasoning effort.
 * The call is the run's: reserved from its workspace's monthly tokens and counted in its usage.
 */
export function reasoningServer(
  deps: ReasoningServerDeps,
  context: Pick<InternalToolContext, 'tokens'>,
): McpServer {
  const server = new McpServer({ name: 'reasoning', version: '1.0.0' });
  server.registerTool(
    'reason',
    {
      annotations: { readOnlyHint: true },
      description:
        'Hands a hard problem (maths, logic, planning, tricky code) to a reasoning model and returns its ' +
        'answer. State the whole problem in the question: the model sees nothing else.',
      inputSchema: {
        question: z.string().min(1).max(100_000).describe('The complete problem to solve.'),
      },
    },
    async ({ question }, extra) => {
      const request: ModelRequest = {
        modelId: deps.modelId,
        instructions: INSTRUCTIONS,
        // Reasoning models accept only their default temperature.
        temperature: 1,
        reasoningEffort: 'high',
        messages: [{ role: 'user', content: question }],
        tools: [],
        maxOutputTokens: deps.maxOutputTokens,
      };
      let answer = '';
      let usage: ModelUsage | null = null;
      try {
        const hold = await context.tokens.reserve(request);
        try {
          await deps.models.get('openai').stream(request, extra.signal, (chunk) => {
            if (chunk.type === 'text') answer += chunk.text;
            if (chunk.type === 'usage') usage = chunk.usage;
            return true;
          });
        } catch (error) {
          // As in a run's own step: the call's failure is what the tool reports; the run's end gives back the hold.
          await context.tokens.settle(hold, usage).catch(() => undefined);
          throw error;
        }
        await context.tokens.settle(hold, usage);
      } catch (error) {
        if (error instanceof ModelError) return toolError(`The reasoning model failed: ${error.message}`);
        throw error;
      }
      return answer === '' ? toolError('The reasoning model gave no answer.') : text(answer);
    },
  );
  return server;
}
