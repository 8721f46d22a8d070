import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpSession } from 'src/platform/mcp/mcp-session';
import { SdkMcpSession, mcpClient } from 'src/platform/mcp/sdk-session';

/**
 * Connects a client to a server of this process over the SDK's in-memory transport: internal tool
 * servers are called exactly as remote ones are. Closing the session closes the server too.
 */
export async function connectInProcess(server: McpServer): Promise<McpSession> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = mcpClient();
  await client.connect(clientTransport);
  const session = new SdkMcpSession(client);
  return {
    listTools: (signal, limits) => session.listTools(signal, limits),
    callTool: (name, args, options) => session.callTool(name, args, options),
    serverVersion: () => session.serverVersion(),
    close: async () => {
      await session.close();
      await server.close();
    },
  };
}
