import { Global, Module } from '@nestjs/common';
import { McpConnector } from 'src/platform/mcp/mcp-session';
import { RemoteMcpConnector } from 'src/platform/mcp/remote-mcp-connector';

/** One connector to remote MCP servers for every context (the catalogue syncs, the runtime calls). */
@Global()
@Module({
  providers: [{ provide: McpConnector, useClass: RemoteMcpConnector }],
  exports: [McpConnector],
})
export class McpModule {}
