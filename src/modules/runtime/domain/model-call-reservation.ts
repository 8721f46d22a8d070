/** What a model call's reservation is computed from: the text it sends and the most it may write. */
export interface ReservedRequest {
  instructions: string;
  messages: (
    | { role: 'user'; content: string; image?: unknown }
    | { role: 'assistant'; content: string; toolCalls?: { name: string; arguments: string }[] }
    | { role: 'tool'; content: string }
  )[];
  tools: { name: string; description: string; parameters: Record<string, unknown> }[];
  maxOutputTokens: number | null;
}

/**
 * UTF-8 bytes counted as one token. Tokenizers give about 4 bytes of English a token, 3 of code or
 * JSON, and one token or more to a 3-byte CJK character: 3 overestimates the first two and matches
 * the last, so a prompt is seldom estimated below its real count.
 */
export const BYTES_PER_TOKEN = 3;
/** A message's role and separators, which chat formats count beyond its text (OpenAI's: 3 to 4). */
export const MESSAGE_TOKENS = 4;
/** An image shown to the model: about what OpenAI's models charge for one at high detail. */
export const IMAGE_TOKENS = 1_500;
/** What a call sent without a cap reserves for its answer: the ceiling of most current models. */
export const UNCAPPED_OUTPUT_TOKENS = 16_384;

/**
 * The tokens a model call reserves of its workspace's monthly budget before it starts: the most it
 * may write (its cap, or `UNCAPPED_OUTPUT_TOKENS` without one) and an estimate of its prompt, which
 * only the provider counts exactly. The call then settles at what the provider reports.
 */
export function reservedTokens(request: ReservedRequest): number {
  let bytes = Buffer.byteLength(request.instructions);
  let extra = MESSAGE_TOKENS;
  for (const message of request.messages) {
    bytes += Buffer.byteLength(message.content);
    extra += MESSAGE_TOKENS;
    if (message.role === 'user' && message.image) extra += IMAGE_TOKENS;
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? [])
        bytes += Buffer.byteLength(call.name) + Buffer.byteLength(call.arguments);
  }
  for (const tool of request.tools)
    bytes +=
      Buffer.byteLength(tool.name) +
      Buffer.byteLength(tool.description) +
      Buffer.byteLength(JSON.stringify(tool.parameters));
  return Math.ceil(bytes / BYTES_PER_TOKEN) + extra + (request.maxOutputTokens ?? UNCAPPED_OUTPUT_TOKENS);
}
