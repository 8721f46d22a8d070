import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { RuntimeConfig } from 'src/modules/runtime/runtime.config';
import {
  ModelChunk,
  ModelChunkHandler,
  ModelMessage,
  ModelProvider,
  ModelRequest,
  pushChunks,
} from 'src/modules/runtime/application/ports/model-provider';
import {
  LocalTurn,
  chunkAnswer,
  localAnswer,
  localToolAnswer,
  localToolCalls,
} from 'src/modules/runtime/domain/local-answer';

/**
 * The built-in deterministic model: no network, answers streamed in word groups. A user message of
 * `/tool <function> {json}` lines makes it call those functions (when the run offers them), then
 * answer with their outputs. Asked to continue a cut answer, it streams what follows it.
 */
@Injectable()
export class LocalModelProvider extends ModelProvider {
  constructor(private readonly config: RuntimeConfig) {
    super();
  }

  stream(request: ModelRequest, signal: AbortSignal, onChunk: ModelChunkHandler): Promise<boolean> {
    return pushChunks(this.answer(request, signal), onChunk);
  }

  /** It reads text only: images are described to it by their title and type. */
  acceptsImages(): boolean {
    return false;
  }

  private async *answer(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const lastUser = request.messages.map((message) => message.role).lastIndexOf('user');
    const sinceUser = request.messages.slice(lastUser + 1);
    const asked = lastUser >= 0 ? localToolCalls(request.messages[lastUser].content) : [];
    if (asked.length > 0 && sinceUser.length === 0) {
      const offered = new Set(request.tools.map((tool) => tool.name));
      const calls = asked.filter((call) => offered.has(call.name));
      if (calls.length > 0) {
        yield {
          type: 'tool_calls',
          calls: calls.map((call, index) => ({ id: `call_${index + 1}`, ...call })),
        };
        return;
      }
      const names = [...offered].join(', ') || 'none';
      yield* this.say(
        `I have no tool named ${asked[0].name}. The tools I can call: ${names}.`,
        request,
        signal,
      );
      return;
    }
    const results = toolResults(sinceUser);
    yield* this.say(
      results.length > 0
        ? localToolAnswer(results)
        : localAnswer(request.instructions, request.messages.flatMap(asTurn)),
      request,
      signal,
    );
  }

  private async *say(answer: string, request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const said = request.continueFrom ?? '';
    const rest = answer.startsWith(said) ? answer.slice(said.length) : answer;
    for (const chunk of chunkAnswer(rest)) {
      if (this.config.runs.localModelChunkDelayMs > 0) {
        await sleep(this.config.runs.localModelChunkDelayMs, undefined, { signal });
      }
      signal.throwIfAborted();
      yield { type: 'text', text: chunk };
    }
  }
}

function asTurn(message: ModelMessage): LocalTurn[] {
  return message.role === 'tool' ? [] : [{ role: message.role, content: message.content }];
}

/** The outputs of the calls made since the user spoke, named by the function called. */
function toolResults(sinceUser: ModelMessage[]): { name: string; output: string }[] {
  const names = new Map<string, string>();
  const results: { name: string; output: string }[] = [];
  for (const message of sinceUser) {
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? []) names.set(call.id, call.name);
    if (message.role === 'tool')
      results.push({ name: names.get(message.toolCallId) ?? 'tool', output: message.content });
  }
  return results;
}
