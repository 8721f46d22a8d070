import type { DustAPI } from '@dust-tt/client';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * What Dust's extension and CLI do, in Node: an MCP server of the official SDK lent through
 * `@dust-tt/client`'s own calls — `registerMCPServer`, `heartbeatMCPServer`,
 * `getMCPRequestsConnectionDetails` (its stream read with fetch, as the client's EventSource
 * would), `postMCPResults`.
 */
export class DustClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  serverId = '';
  /** Every request the streams delivered, in order. */
  readonly received: JSONRPCMessage[] = [];
  /** How many times the stream ended with `done` and was opened again. */
  reconnections = 0;
  private lastEventId: string | undefined;
  private readonly stopped = new AbortController();
  private beating: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;

  constructor(
    private readonly dust: DustAPI,
    private readonly serverName: string,
  ) {}

  async start(): Promise<void> {
    const registered = await this.dust.registerMCPServer({ serverName: this.serverName });
    if (registered.isErr()) throw new Error(`register: ${registered.error.message}`);
    this.serverId = registered.value.serverId;
    this.polling = this.poll();
  }

  /** Heartbeats every `everyMs` until `stopBeating`. */
  startBeating(everyMs: number): void {
    this.beating = setInterval(() => void this.dust.heartbeatMCPServer({ serverId: this.serverId }), everyMs);
  }

  stopBeating(): void {
    if (this.beating) clearInterval(this.beating);
    this.beating = null;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const posted = await this.dust.postMCPResults({ serverId: this.serverId, result: message });
    if (posted.isErr()) this.onerror?.(new Error(posted.error.message));
  }

  async close(): Promise<void> {
    this.stopBeating();
    this.stopped.abort();
    await this.polling?.catch(() => undefined);
    this.onclose?.();
  }

  private async poll(): Promise<void> {
    while (!this.stopped.signal.aborted) {
      const details = await this.dust.getMCPRequestsConnectionDetails({
        serverId: this.serverId,
        lastEventId: this.lastEventId ?? null,
      });
      if (details.isErr()) return;
      let res: Response;
      try {
        res = await fetch(details.value.url, { headers: details.value.headers, signal: this.stopped.signal });
      } catch {
        return;
      }
      if (!res.ok || !res.body) return;
      if (!(await this.read(res.body))) return;
      this.reconnections += 1;
    }
  }

  /** Reads one stream; true when it ended with `done` (reconnect), false when it broke off. */
  private async read(body: ReadableStream<Uint8Array>): Promise<boolean> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const data = buffer.slice(0, end).replace(/^data: /, '');
          buffer = buffer.slice(end + 2);
          if (data === 'done') return true;
          const event = JSON.parse(data) as { eventId: string; data: JSONRPCMessage };
          this.lastEventId = event.eventId;
          this.received.push(event.data);
          this.onmessage?.(event.data);
        }
      }
    } catch {
      return false;
    }
    return false;
  }
}
