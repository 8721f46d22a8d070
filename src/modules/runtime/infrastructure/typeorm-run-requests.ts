import { Injectable } from '@nestjs/common';
import type { Scope } from 'src/platform/auth/scopes';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  NewRunRequest,
  RunRequest,
  RunRequestQueue,
} from 'src/modules/runtime/application/ports/run-requests';

interface RequestRow {
  id: string;
  workspace_id: number;
  conversation_id: number;
  message_id: number;
  user_id: number;
  key_id: string;
  scopes: Scope[];
  new_agent_mentions: string[];
  rerun_message_ids: number[];
}

/**
 * Run requests in PostgreSQL. A claim deletes the request under its row lock, so a request another
 * transaction is claiming is skipped (`SKIP LOCKED`) rather than waited for, and comes back if that
 * transaction rolls back. Turns rank each workspace's requests by age: the first of every
 * workspace, then the second of every workspace, and so on.
 */
@Injectable()
export class TypeormRunRequestQueue extends RunRequestQueue {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  async enqueue(request: NewRunRequest): Promise<number> {
    const [row] = await this.db.manager().query<{ id: string }[]>(
      `INSERT INTO run_requests (workspace_id, conversation_id, message_id, user_id, key_id, scopes,
                                 new_agent_mentions, rerun_message_ids)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [
        request.workspaceId,
        request.conversationId,
        request.messageId,
        request.userId,
        request.keyId,
        JSON.stringify(request.scopes),
        JSON.stringify(request.newAgentMentions),
        JSON.stringify(request.rerunMessageIds),
      ],
    );
    return Number(row.id);
  }

  async claimNext(skippedWorkspaceIds: readonly number[]): Promise<RunRequest | null> {
    const [rows] = await this.db.manager().query<[RequestRow[], number]>(
      `DELETE FROM run_requests WHERE id = (
         SELECT r.id FROM run_requests r
           JOIN (SELECT id, row_number() OVER (PARTITION BY workspace_id ORDER BY id) AS turn
                   FROM run_requests
                  WHERE workspace_id <> ALL($1::int[]) AND available_at <= now()) t ON t.id = r.id
          ORDER BY t.turn, r.id LIMIT 1
            FOR UPDATE OF r SKIP LOCKED)
       RETURNING *`,
      [skippedWorkspaceIds],
    );
    const row = rows[0];
    if (!row) return null;
    return toRequest(row);
  }

  async putOff(id: number, maxAttempts: number): Promise<boolean> {
    const [rows] = await this.db.manager().query<[{ attempts: number }[], number]>(
      `UPDATE run_requests
          SET attempts = attempts + 1, available_at = now() + make_interval(secs => 2 ^ attempts)
        WHERE id = $1 RETURNING attempts`,
      [id],
    );
    if (!rows[0] || rows[0].attempts < maxAttempts) return false;
    await this.db.manager().query('DELETE FROM run_requests WHERE id = $1', [id]);
    return true;
  }
}

function toRequest(row: RequestRow): RunRequest {
  return {
    id: Number(row.id),
    workspaceId: row.workspace_id,
    conversationId: row.conversation_id,
    messageId: row.message_id,
    userId: row.user_id,
    keyId: row.key_id,
    scopes: row.scopes,
    newAgentMentions: row.new_agent_mentions,
    rerunMessageIds: row.rerun_message_ids,
  };
}
