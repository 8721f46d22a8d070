import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { answerTooLarge } from 'src/platform/mcp/bounded-answers';
import {
  McpAnswerTooLarge,
  McpCallTimeout,
  McpListingLimits,
  McpSession,
  McpToolDescriptor,
  McpToolOutput,
} from 'src/platform/mcp/mcp-session';

export const MCP_CLIENT_INFO = { name: 'workspace-agent-api', version: '1.0.2' };

/** A client as every session uses one. */
export function mcpClient(): Client {
  return new Client(MCP_CLIENT_INFO, { jsonSchemaValidator: lazySchemaValidator() });
}

/**
 * Checks tools' answers against their output schemas as the SDK does, but builds its Ajv instance,
 * and compiles a schema, only when an answer needs it: the SDK's default builds one per client
 * (milliseconds for every run's session) and compiles every listed tool's schema at listing time.
 */
function lazySchemaValidator(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      let validate: JsonSchemaValidator<T> | undefined;
      return (input) => (validate ??= (ajv ??= new AjvJsonSchemaValidator()).getValidator<T>(schema))(input);
    },
  };
}

type ContentItem = { type: string; text?: unknown; mimeType?: unknown; uri?: unknown; resource?: unknown };

/** Non-text content reaches the model as a line of text saying what it was. */
function asText(item: ContentItem): string {
  if (item.type === 'text' && typeof item.text === 'string') return item.text;
  if (item.type === 'resource' && item.resource && typeof item.resource === 'object') {
    const resource = item.resource as { text?: unknown; uri?: unknown };
    if (typeof resource.text === 'string') return resource.text;
    return `[resource ${String(resource.uri)}]`;
  }
  if (item.type === 'resource_link') return `[resource ${String(item.uri)}]`;
  return `[${item.type}${typeof item.mimeType === 'string' ? ` ${item.mimeType}` : ''}]`;
}

/** An `McpSession` over a connected SDK client. */
export class SdkMcpSession implements McpSession {
  constructor(private readonly client: Client) {}

  async listTools(signal?: AbortSignal, limits?: McpListingLimits): Promise<McpToolDescriptor[]> {
    const tools: McpToolDescriptor[] = [];
    let bytes = 0;
    let pages = 0;
    let cursor: string | undefined;
    do {
      const page = await this.client
        .listTools(cursor ? { cursor } : undefined, { signal: perRequest(signal) })
        .catch(rethrown);
      const listed = page.tools.map((tool) => ({
        name: tool.name,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema,
        ...(tool.annotations?.readOnlyHint === true && { readOnlyHint: true }),
        ...(tool.annotations?.idempotentHint === true && { idempotentHint: true }),
      }));
      tools.push(...listed);
      pages += 1;
      if (limits) {
        bytes += Buffer.byteLength(JSON.stringify(listed));
        const problem = listingProblem(limits, tools.length, bytes, pages);
        if (problem) throw new McpAnswerTooLarge(problem);
      }
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<McpToolOutput> {
    try {
      const result = await this.client.callTool({ name, arguments: args }, undefined, {
        signal: perRequest(options.signal),
        timeout: options.timeoutMs,
      });
      const content = Array.isArray(result.content) ? (result.content as ContentItem[]) : [];
      return {
        isError: result.isError === true,
        content: content.map((item) => ({ type: 'text' as const, text: asText(item) })),
      };
    } catch (error) {
      if (error instanceof McpError && error.code === (ErrorCode.RequestTimeout as number))
        throw new McpCallTimeout(options.timeoutMs);
      return rethrown(error);
    }
  }

  serverVersion(): string | null {
    return this.client.getServerVersion()?.version ?? null;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/**
 * A signal of one request that follows the caller's: the SDK adds an abort listener to the signal
 * it is given and never removes it, so a run's signal given to every call would gather them.
 */
function perRequest(signal: AbortSignal | undefined): AbortSignal | undefined {
  return signal && AbortSignal.any([signal]);
}

/** The SDK's error for an answer cut at the byte limit, as the limit's own error. */
function rethrown(error: unknown): never {
  throw answerTooLarge(error) ?? error;
}

/** Why a listing read so far passes its limits, or null; a page past them is the last one read. */
function listingProblem(
  limits: McpListingLimits,
  tools: number,
  bytes: number,
  pages: number,
): string | null {
  if (tools > limits.maxTools)
    return `The server lists more than ${limits.maxTools} tools; the listing was not read further.`;
  if (bytes > limits.maxBytes)
    return `The server's tool list takes more than ${limits.maxBytes} bytes; the listing was not read further.`;
  // Empty pages with a next cursor would otherwise be read for ever.
  if (pages > limits.maxTools)
    return `The server's tool list has more than ${limits.maxTools} pages; the listing was not read further.`;
  return null;
}
