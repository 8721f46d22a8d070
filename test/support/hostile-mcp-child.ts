import { HostileMcpOptions, startHostileMcpServer } from 'test/support/hostile-mcp-server';

/**
 * Entry of the process that serves the hostile MCP servers (`startHostileMcpProcess`), so building
 * their huge answers never stalls the test process that measures the service.
 */
async function serve(options: HostileMcpOptions): Promise<void> {
  const server = await startHostileMcpServer(options);
  process.on('message', (message: string) => {
    if (message === 'pages') process.send!({ pages: server.listPages.length });
    if (message === 'stop') void server.stop().then(() => process.exit(0));
  });
  process.on('disconnect', () => void server.stop().then(() => process.exit(0)));
  process.send!({ listingUrl: server.listingUrl, outputsUrl: server.outputsUrl });
}

void serve(JSON.parse(process.argv[2]) as HostileMcpOptions);
