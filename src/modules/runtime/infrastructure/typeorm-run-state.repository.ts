import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { RunStateRepository, StaleRun } from 'src/modules/runtime/application/ports/run-state.repository';

/**
 * Run state in the `runner_id` and `runner_heartbeat_at` columns of `messages`: they hold only the
 * runtime's state, but moving them to a table of their own would need a data migration for no
 * gain. Times are the database's, so processes whose clocks differ agree on what is stale.
 */
@Injectable()
export class TypeormRunStateRepository extends RunStateRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  async claim(
    runnerId: string,
    runs: { workspaceId: number; messageId: number; userId: number }[],
  ): Promise<void> {
    if (runs.length === 0) return;
    await this.db.manager().query(
      `UPDATE messages m SET runner_id = $1, runner_heartbeat_at = now(), run_user_id = r.user_id
         FROM unnest($2::int[], $3::int[], $4::int[]) AS r(workspace_id, id, user_id)
        WHERE m.id = r.id AND m.workspace_id = r.workspace_id AND m.status = 'created'`,
      [
        runnerId,
        runs.map((run) => run.workspaceId),
        runs.map((run) => run.messageId),
        runs.map((run) => run.userId),
      ],
    );
  }

  async takeOver(runnerId: string, run: StaleRun, staleAfterMs: number): Promise<boolean> {
    const [, count] = await this.db.manager().query<[unknown[], number]>(
      `UPDATE messages SET runner_id = $1, runner_heartbeat_at = now()
        WHERE id = $2 AND workspace_id = $3 AND status = 'created'
          AND runner_heartbeat_at < now() - make_interval(secs => $4::float8 / 1000)`,
      [runnerId, run.messageId, run.workspaceId, staleAfterMs],
    );
    return count > 0;
  }

  async runUserId(run: StaleRun): Promise<number | null> {
    const rows = await this.db
      .manager()
      .query<{ run_user_id: number | null }[]>(
        'SELECT run_user_id FROM messages WHERE id = $1 AND workspace_id = $2',
        [run.messageId, run.workspaceId],
      );
    return rows[0]?.run_user_id ?? null;
  }

  async heartbeat(runnerId: string): Promise<void> {
    await this.db
      .manager()
      .query("UPDATE messages SET runner_heartbeat_at = now() WHERE runner_id = $1 AND status = 'created'", [
        runnerId,
      ]);
  }

  async findStale(staleAfterMs: number, limit: number): Promise<StaleRun[]> {
    const rows = await this.db
      .manager()
      .query<{ workspace_id: number; conversation_id: number; id: number }[]>(
        `SELECT workspace_id, conversation_id, id FROM messages
        WHERE status = 'created' AND type = 'agent_message'
          AND runner_heartbeat_at < now() - make_interval(secs => $1::float8 / 1000)
        ORDER BY id LIMIT $2`,
        [staleAfterMs, limit],
      );
    return rows.map((row) => ({
      workspaceId: row.workspace_id,
      conversationId: row.conversation_id,
      messageId: row.id,
    }));
  }
}
