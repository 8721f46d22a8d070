import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { generateSId } from 'src/platform/ids/sid';
import {
  ClientMcpOutcome,
  ClientMcpRequest,
  ClientMcpStore,
} from 'src/modules/runtime/application/ports/client-mcp-store';
import type { ClientMcpServer } from 'src/modules/runtime/domain/client-mcp-server';

interface ServerRow {
  id: number;
  s_id: string;
  workspace_id: number;
  user_id: number;
  name: string;
  expires_at: Date;
}

interface PendingRow {
  id: string;
  message: Record<string, unknown>;
  expects_answer: boolean;
}

interface OutcomeRow {
  id: string;
  answer: Record<string, unknown> | null;
  dropped_reason: string | null;
}

const SERVER_COLUMNS = 'id, s_id, workspace_id, user_id, name, expires_at';

function toServer(row: ServerRow): ClientMcpServer {
  return {
    id: row.id,
    sId: row.s_id,
    workspaceId: row.workspace_id,
    userId: row.user_id,
    name: row.name,
    expiresAt: row.expires_at,
  };
}

type Owner = { workspaceId: number; userId: number };

@Injectable()
export class TypeormClientMcpStore extends ClientMcpStore {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  async register(owner: Owner, name: string, limit: number, ttlMs: number): Promise<ClientMcpServer | null> {
    // The member's row lock makes the count and the insert one step for concurrent registrations.
    return this.db.run(async () => {
      await this.db.manager().query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [owner.userId]);
      const [{ count }] = await this.db.manager().query<{ count: number }[]>(
        `SELECT count(*)::int AS count FROM client_mcp_servers
          WHERE workspace_id = $1 AND user_id = $2 AND expires_at > now()`,
        [owner.workspaceId, owner.userId],
      );
      if (count >= limit) return null;
      const rows = await this.db.manager().query<ServerRow[]>(
        `INSERT INTO client_mcp_servers (s_id, workspace_id, user_id, name, expires_at)
         VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')
         RETURNING ${SERVER_COLUMNS}`,
        [generateSId(), owner.workspaceId, owner.userId, name, ttlMs],
      );
      return toServer(rows[0]);
    });
  }

  async heartbeat(owner: Owner, sId: string, ttlMs: number): Promise<ClientMcpServer | null> {
    const [rows] = await this.db.manager().query<[ServerRow[], number]>(
      `UPDATE client_mcp_servers SET expires_at = now() + $4 * interval '1 millisecond'
        WHERE s_id = $1 AND workspace_id = $2 AND user_id = $3 AND expires_at > now()
        RETURNING ${SERVER_COLUMNS}`,
      [sId, owner.workspaceId, owner.userId, ttlMs],
    );
    return rows.length > 0 ? toServer(rows[0]) : null;
  }

  async findLive(owner: Owner, sIds: string[]): Promise<ClientMcpServer[]> {
    if (sIds.length === 0) return [];
    const rows = await this.db.manager().query<ServerRow[]>(
      `SELECT ${SERVER_COLUMNS} FROM client_mcp_servers
        WHERE s_id = ANY($1) AND workspace_id = $2 AND user_id = $3 AND expires_at > now()`,
      [sIds, owner.workspaceId, owner.userId],
    );
    return rows.map(toServer);
  }

  async dropExpired(reason: (name: string) => string, forgetAfterMs: number): Promise<ClientMcpServer[]> {
    return this.db.run(async () => {
      // DELETE … RETURNING hands each expired row to exactly one of the sweeps running at once.
      const [rows] = await this.db
        .manager()
        .query<[ServerRow[], number]>(
          `DELETE FROM client_mcp_servers WHERE expires_at <= now() RETURNING ${SERVER_COLUMNS}`,
        );
      const dropped = rows.map(toServer);
      for (const server of dropped) {
        await this.db.manager().query(
          `UPDATE client_mcp_requests SET dropped_reason = $2
            WHERE server_id = $1 AND expects_answer AND answer IS NULL AND dropped_reason IS NULL`,
          [server.id, reason(server.name)],
        );
      }
      await this.db
        .manager()
        .query(`DELETE FROM client_mcp_requests WHERE created_at < now() - $1 * interval '1 millisecond'`, [
          forgetAfterMs,
        ]);
      return dropped;
    });
  }

  async enqueue(serverId: number, message: Record<string, unknown>, expectsAnswer: boolean): Promise<string> {
    const rows = await this.db
      .manager()
      .query<{ id: string }[]>(
        `INSERT INTO client_mcp_requests (server_id, message, expects_answer) VALUES ($1, $2, $3) RETURNING id::text AS id`,
        [serverId, message, expectsAnswer],
      );
    return rows[0].id;
  }

  async pendingAfter(serverId: number, afterId: string, limit: number): Promise<ClientMcpRequest[]> {
    const rows = await this.db.manager().query<PendingRow[]>(
      `SELECT id::text AS id, message, expects_answer FROM client_mcp_requests
        WHERE server_id = $1 AND id > $2 AND answer IS NULL AND dropped_reason IS NULL
        ORDER BY id LIMIT $3`,
      [serverId, afterId, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      // A request's JSON-RPC id is its row's: the answer finds its request by it.
      message: row.expects_answer ? { ...row.message, id: row.id } : row.message,
    }));
  }

  async answer(serverId: number, requestId: string, answer: Record<string, unknown>): Promise<boolean> {
    const [, count] = await this.db.manager().query<[unknown, number]>(
      `UPDATE client_mcp_requests SET answer = $3
        WHERE id = $2 AND server_id = $1 AND expects_answer AND answer IS NULL AND dropped_reason IS NULL`,
      [serverId, requestId, answer],
    );
    return count > 0;
  }

  async outcomes(ids: string[]): Promise<ClientMcpOutcome[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.manager().query<OutcomeRow[]>(
      `SELECT id::text AS id, answer, dropped_reason FROM client_mcp_requests
        WHERE id = ANY($1::bigint[]) AND (answer IS NOT NULL OR dropped_reason IS NOT NULL)`,
      [ids],
    );
    return rows.map((row) => ({ id: row.id, answer: row.answer, droppedReason: row.dropped_reason }));
  }

  async forget(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.manager().query('DELETE FROM client_mcp_requests WHERE id = ANY($1::bigint[])', [ids]);
  }
}
