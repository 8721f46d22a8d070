import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { McpCallTimeout, McpSession, McpToolDescriptor, McpToolOutput } from 'src/platform/mcp/mcp-session';

export const MCP_CLIENT_INFO = { name: 'workspace-agent-api', version: '1.0.2' };

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

  async listTools(signal?: AbortSignal): Promise<McpToolDescriptor[]> {
    const tools: McpToolDescriptor[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listTools(cursor ? { cursor } : undefined, { signal });
      for (const tool of page.tools) {
        tools.push({
          name: tool.name,
          description: tool.description ?? '',
          inputSchema: tool.inputSchema,
        });
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
        signal: options.signal,
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
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
