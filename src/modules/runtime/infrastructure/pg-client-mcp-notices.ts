import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { EventDoorbell } from 'src/platform/events/event-doorbell';
import { ClientMcpNews, ClientMcpNotices } from 'src/modules/runtime/application/ports/client-mcp-store';

/** The NOTIFY channel of client-side servers' news; its payload is `<server row id>:<news>`. */
const CLIENT_MCP_CHANNEL = 'client_mcp_servers';

type Audience = 'requests' | 'answers';

/**
 * Notices on a channel of the doorbell's LISTEN connection: a request queued on one process
 * reaches a poller on another, and an answer posted anywhere wakes the run waiting for it. Each
 * notice wakes only the server's subscribers to that news: an answer never wakes its request
 * streams, a request never wakes the runs waiting for answers.
 */
@Injectable()
export class PgClientMcpNotices extends ClientMcpNotices {
  private readonly subscribers = new Map<string, Set<() => void>>();

  constructor(
    private readonly db: TypeormUnitOfWork,
    doorbell: EventDoorbell,
  ) {
    super();
    doorbell.listen(CLIENT_MCP_CHANNEL, (payload) => this.onNotice(payload));
  }

  async ring(serverId: number, news: ClientMcpNews): Promise<void> {
    await this.db
      .manager()
      .query('SELECT pg_notify($1::text, $2::text)', [CLIENT_MCP_CHANNEL, `${serverId}:${news}`]);
  }

  subscribe(serverId: number, news: Audience, ring: () => void): () => void {
    const key = `${serverId}:${news}`;
    const rings = this.subscribers.get(key) ?? new Set<() => void>();
    rings.add(ring);
    this.subscribers.set(key, rings);
    return () => {
      rings.delete(ring);
      if (rings.size === 0) this.subscribers.delete(key);
    };
  }

  /** `null`: the connection came back, notices may have been lost, so everyone looks again. */
  private onNotice(payload: string | null): void {
    if (payload === null) {
      for (const rings of [...this.subscribers.values()]) for (const ring of [...rings]) ring();
      return;
    }
    const [serverId, news] = payload.split(':');
    // A bare id (a process of the previous release) says nothing of the news: both hear it.
    const audiences: Audience[] =
      news === 'requests' || news === 'answers' ? [news] : ['requests', 'answers'];
    for (const audience of audiences)
      for (const ring of [...(this.subscribers.get(`${serverId}:${audience}`) ?? [])]) ring();
  }
}
