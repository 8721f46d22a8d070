import type { ModelProviderId, ReasoningEffort } from 'src/kernel/agent-model';
import type { RetryBudget } from 'src/modules/runtime/domain/retry-budget';

/** A function the model may call: a tool of the run's toolset, named `<server>__<tool>`. */
export interface ModelTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments, as the tool server lists it. */
  parameters: Record<string, unknown>;
}

/** A call the model asked for; `arguments` is the JSON text it wrote (it may be malformed). */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** An image a user turn shows, for providers that read images: its bytes in base64. */
export interface ModelImage {
  contentType: string;
  base64: string;
}

export type ModelMessage =
  /** With `image`, `content` introduces it; a provider that reads no images never gets one. */
  | { role: 'user'; content: string; image?: ModelImage }
  | { role: 'assistant'; content: string; toolCalls?: ModelToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

export interface ModelRequest {
  modelId: string;
  instructions: string;
  temperature: number;
  reasoningEffort: ReasoningEffort;
  messages: ModelMessage[];
  /** Empty: the model answers in text only. */
  tools: ModelTool[];
  /** The most tokens the call may write, reasoning included; null: the model's own ceiling. */
  maxOutputTokens: number | null;
  /**
   * The answer the model had streamed when its call was cut (its process stopped): the model is
   * asked to go on from its last character, and streams only what follows.
   */
  continueFrom?: string;
  /**
   * The retries the calls of the run share: a provider takes one before each retry, and fails the
   * call once none is left. Without it, a call retries as often as its provider allows.
   */
  retries?: RetryBudget;
}

/** The tokens a model call cost, as its provider counts them; reasoning tokens are part of completion tokens. */
export interface ModelUsage {
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
}

/**
 * What a model streams: answer text, reasoning text (models that show their reasoning apart from
 * the answer), the tool calls of the step once complete, and what the call cost when the provider
 * says (at most once, at the end).
 */
export type ModelChunk =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_calls'; calls: ModelToolCall[] }
  | { type: 'usage'; usage: ModelUsage };

/** A failure of the model call, with the code that ends up on the agent message. */
export class ModelError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Takes each chunk as it arrives: true goes on, false stops the call (its run was cancelled), and a
 * promise holds the stream until it settles to one of those.
 */
export type ModelChunkHandler = (chunk: ModelChunk) => boolean | Promise<boolean>;

/**
 * Port: turns instructions, a conversation and tools into streamed text, then (at most once, last)
 * the tool calls the model wants made before it goes on. The chunks are pushed to a handler as
 * they arrive, not pulled: a run streams thousands of them, and each layer of async iteration
 * between the socket and the run would cost every one of them a few promises.
 */
export abstract class ModelProvider {
  /** Resolves true once the answer ended, false when `onChunk` stopped it. */
  abstract stream(request: ModelRequest, signal: AbortSignal, onChunk: ModelChunkHandler): Promise<boolean>;
  /** Whether `modelId` reads images in user turns; otherwise the run describes them in text. */
  abstract acceptsImages(modelId: string): boolean;
}

/** Port: the adapter for each provider an agent may name. */
export abstract class ModelProviders {
  abstract get(providerId: ModelProviderId): ModelProvider;
}

/** Hands chunks made one after another (a provider that produces them itself) to `onChunk`, in order. */
export async function pushChunks(
  chunks: AsyncIterable<ModelChunk> | Iterable<ModelChunk>,
  onChunk: ModelChunkHandler,
): Promise<boolean> {
  for await (const chunk of chunks) {
    if (!(await onChunk(chunk))) return false;
  }
  return true;
}
