import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { EventDoorbell } from 'src/platform/events/event-doorbell';
import { ClientMcpNotices } from 'src/modules/runtime/application/ports/client-mcp-store';

/** The NOTIFY channel of client-side servers' news; its payload is the server's row id. */
const CLIENT_MCP_CHANNEL = 'client_mcp_servers';

/**
 * Notices on a channel of the doorbell's LISTEN connection: a request queued on one process
 * reaches a poller on another, and an answer posted anywhere wakes the run waiting for it.
 */
@Injectable()
export class PgClientMcpNotices extends ClientMcpNotices {
  private readonly subscribers = new Map<number, Set<() => void>>();

  constructor(
    private readonly db: TypeormUnitOfWork,
    doorbell: EventDoorbell,
  ) {
    super();
    doorbell.listen(CLIENT_MCP_CHANNEL, (payload) => this.onNotice(payload));
  }

  async ring(serverId: number): Promise<void> {
    await this.db
      .manager()
      .query('SELECT pg_notify($1::text, $2::text)', [CLIENT_MCP_CHANNEL, String(serverId)]);
  }

  subscribe(serverId: number, ring: () => void): () => void {
    const rings = this.subscribers.get(serverId) ?? new Set<() => void>();
    rings.add(ring);
    this.subscribers.set(serverId, rings);
    return () => {
      rings.delete(ring);
      if (rings.size === 0) this.subscribers.delete(serverId);
    };
  }

  /** `null`: the connection came back, notices may have been lost, so everyone looks again. */
  private onNotice(payload: string | null): void {
    const targets =
      payload === null
        ? [...this.subscribers.values()]
        : [this.subscribers.get(Number(payload)) ?? new Set()];
    for (const rings of targets) for (const ring of [...rings]) ring();
  }
}
