import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';

export type FakeReply =
  { kind: 'stream'; chunks: string[] } | { kind: 'status'; status: number } | { kind: 'stall' };

/** A local OpenAI-compatible chat-completions server whose replies the test scripts, one per request. */
export class FakeOpenAi {
  readonly requests: { path: string; authorization: string | undefined; body: Record<string, unknown> }[] =
    [];
  private readonly replies: FakeReply[] = [];
  private readonly stalled: ServerResponse[] = [];
  private server: Server | null = null;

  script(...replies: FakeReply[]): void {
    this.replies.push(...replies);
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address() as { port: number };
    return `http://127.0.0.1:${address.port}/v1`;
  }

  async stop(): Promise<void> {
    for (const res of this.stalled) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    this.requests.push({
      path: req.url ?? '',
      authorization: req.headers.authorization,
      body: JSON.parse(raw || '{}') as Record<string, unknown>,
    });
    const reply = this.replies.shift() ?? { kind: 'status', status: 500 };
    switch (reply.kind) {
      case 'status':
        res.writeHead(reply.status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `scripted ${reply.status}` } }));
        return;
      case 'stall':
        this.stalled.push(res);
        return;
      case 'stream':
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        for (const chunk of reply.chunks) {
          res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: chunk } }] })}\n\n`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        res.end('data: [DONE]\n\n');
    }
  }
}
