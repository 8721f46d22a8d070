import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { AgentRunRepository, RunStart } from 'src/modules/runtime/application/ports/agent-run.repository';
import type { ModelUsage } from 'src/modules/runtime/application/ports/model-provider';
import { AgentRun, RunOutcome, RunStatus } from 'src/modules/runtime/domain/agent-run';
import type {
  ActionOutcome,
  ActionOutput,
  ActionStatus,
  NewRunAction,
  RunAction,
} from 'src/modules/runtime/domain/run-action';
import { AgentRunEntity, RunActionEntity } from 'src/modules/runtime/infrastructure/runtime.entities';
import { In } from 'typeorm';

interface RunRow {
  id: number;
  workspace_id: number;
  conversation_id: number;
  message_id: number;
  user_id: number | null;
  status: RunStatus;
  runner_id: string | null;
  runner_heartbeat_at: Date | null;
  step_texts: Record<string, string>;
}

interface ActionRow {
  id: number;
  s_id: string;
  workspace_id: number;
  run_id: number;
  conversation_id: number;
  message_id: number;
  step: number;
  tool_call_id: string;
  function_call_name: string;
  mcp_server_name: string;
  mcp_server_id: string | null;
  internal_mcp_server_name: string | null;
  tool_name: string;
  params: Record<string, unknown>;
  status: ActionStatus;
  output: ActionOutput | null;
  created_at: Date;
  updated_at: Date;
  execution_duration_ms: number | null;
  approval_deadline: Date | null;
  approver_id: number | null;
}

/** A call with the conversation and agent message of its run. */
const ACTIONS = `SELECT a.id, a.s_id, a.workspace_id, a.run_id, r.conversation_id, r.message_id, a.step,
         a.tool_call_id, a.function_call_name, a.mcp_server_name, a.mcp_server_id,
         a.internal_mcp_server_name, a.tool_name, a.params, a.status, a.output, a.created_at, a.updated_at,
         a.execution_duration_ms, a.approval_deadline, a.approver_id
    FROM agent_run_actions a JOIN agent_runs r ON r.id = a.run_id`;

const INT_MAX = 2 ** 31 - 1;

const STALE = `runner_heartbeat_at < now() - make_interval(secs => $1::float8 / 1000)`;

/** The month a run's tokens count in (`workspace_run_tokens.period_start`): the one it started in, UTC. */
const RUN_MONTH = `date_trunc('month', agent_runs.created_at, 'UTC')`;

/**
 * One statement that changes the runs `locked` selects (locking them, with their `reserved_tokens`)
 * by `changes`, gives back to their months what their calls held, and counts them as `changed`. It
 * locks each run's row, then its month's, as reservations and settlements do: never the other way.
 */
function releasingHolds(locked: string, changes: string | null): string {
  return `WITH before AS (${locked}),
    run AS (
      UPDATE agent_runs SET ${changes ? `${changes}, ` : ''}reserved_tokens = 0
        FROM before WHERE agent_runs.id = before.id
      RETURNING agent_runs.id, agent_runs.workspace_id, ${RUN_MONTH} AS period_start,
                before.reserved_tokens AS released),
    -- Summed per month first: an UPDATE … FROM applies one joined row per target row.
    month AS (
      SELECT workspace_id, period_start, sum(released) AS released FROM run
       WHERE released > 0 GROUP BY workspace_id, period_start),
    given AS (
      UPDATE workspace_run_tokens AS month_tokens
         SET reserved_tokens = greatest(month_tokens.reserved_tokens - month.released, 0)
        FROM month
       WHERE month_tokens.workspace_id = month.workspace_id AND month_tokens.period_start = month.period_start)
    SELECT count(*)::int AS changed, coalesce(array_agg(run.id), '{}') AS ids FROM run`;
}

function toAction(row: ActionRow): RunAction {
  return {
    id: row.id,
    sId: row.s_id,
    workspaceId: row.workspace_id,
    runId: row.run_id,
    conversationId: row.conversation_id,
    messageId: row.message_id,
    step: row.step,
    toolCallId: row.tool_call_id,
    functionCallName: row.function_call_name,
    mcpServerName: row.mcp_server_name,
    mcpServerId: row.mcp_server_id,
    internalMcpServerName: row.internal_mcp_server_name,
    toolName: row.tool_name,
    params: row.params,
    status: row.status,
    output: row.output,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    executionDurationMs: row.execution_duration_ms,
    approvalDeadline: row.approval_deadline,
    approverId: row.approver_id,
  };
}

function toRun(row: RunRow, actions: RunAction[]): AgentRun {
  return new AgentRun({
    id: row.id,
    workspaceId: row.workspace_id,
    conversationId: row.conversation_id,
    messageId: row.message_id,
    userId: row.user_id,
    status: row.status,
    runnerId: row.runner_id,
    heartbeatAt: row.runner_heartbeat_at,
    actions: actions.filter((action) => action.runId === row.id),
    stepTexts: row.step_texts,
  });
}

@Injectable()
export class TypeormAgentRunRepository extends AgentRunRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get runs() {
    return this.db.manager().getRepository(AgentRunEntity);
  }

  private get actions() {
    return this.db.manager().getRepository(RunActionEntity);
  }

  private query<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    return this.db.manager().query<T[]>(sql, parameters);
  }

  async start(runnerId: string, runs: RunStart[]): Promise<Map<number, number>> {
    if (runs.length === 0) return new Map();
    const rows = await this.query<{ id: number; message_id: number }>(
      `INSERT INTO agent_runs (workspace_id, conversation_id, message_id, user_id, answered_message_id,
                               agent_s_id, agent_version, model_provider_id, model_id,
                               status, runner_id, runner_heartbeat_at)
       SELECT r.workspace_id, r.conversation_id, r.message_id, r.user_id, r.answered_message_id,
              r.agent_s_id, r.agent_version, r.model_provider_id, r.model_id, 'running', $1, now()
         FROM unnest($2::int[], $3::int[], $4::int[], $5::int[], $6::int[], $7::varchar[], $8::int[],
                     $9::varchar[], $10::varchar[])
           AS r(workspace_id, conversation_id, message_id, user_id, answered_message_id, agent_s_id,
                agent_version, model_provider_id, model_id)
       ON CONFLICT (message_id) DO UPDATE
          SET runner_id = EXCLUDED.runner_id, runner_heartbeat_at = now(), user_id = EXCLUDED.user_id
        WHERE agent_runs.status = 'running' AND agent_runs.workspace_id = EXCLUDED.workspace_id
       RETURNING id, message_id`,
      [
        runnerId,
        runs.map((run) => run.workspaceId),
        runs.map((run) => run.conversationId),
        runs.map((run) => run.messageId),
        runs.map((run) => run.userId),
        runs.map((run) => run.answeredMessageId),
        runs.map((run) => run.agentSId),
        runs.map((run) => run.agentVersion),
        runs.map((run) => run.modelProviderId),
        runs.map((run) => run.modelId),
      ],
    );
    return new Map(rows.map((row) => [row.message_id, row.id]));
  }

  async reserveTokens(
    workspaceId: number,
    runId: number,
    tokens: number,
    monthlyTokens: number,
  ): Promise<boolean> {
    // One statement: the month's row takes the hold only if it leaves the budget room for it, the
    // condition checked on the row's latest version once its lock is held (by any process).
    const rows = await this.query<{ taken: number }>(
      `WITH run AS (
         SELECT id, ${RUN_MONTH} AS period_start FROM agent_runs
          WHERE workspace_id = $1 AND id = $2 AND status = 'running' FOR UPDATE),
       held AS (
         INSERT INTO workspace_run_tokens AS month_tokens (workspace_id, period_start, reserved_tokens)
         SELECT $1, period_start, $3::bigint FROM run WHERE $3::bigint <= $4::bigint
         ON CONFLICT (workspace_id, period_start) DO UPDATE
            SET reserved_tokens = month_tokens.reserved_tokens + EXCLUDED.reserved_tokens
          WHERE month_tokens.used_tokens + month_tokens.reserved_tokens + EXCLUDED.reserved_tokens <= $4::bigint
         RETURNING 1),
       taken AS (
         UPDATE agent_runs SET reserved_tokens = agent_runs.reserved_tokens + $3::bigint
           FROM run WHERE agent_runs.id = run.id AND EXISTS (SELECT 1 FROM held)
         RETURNING agent_runs.id)
       SELECT count(*)::int AS taken FROM taken`,
      [workspaceId, runId, tokens, monthlyTokens],
    );
    return rows[0].taken > 0;
  }

  async settleTokens(
    workspaceId: number,
    runId: number,
    held: number,
    usage: ModelUsage | null,
  ): Promise<void> {
    // The run gives back what it still holds of `held` (its end may have given it back already);
    // sums saturate at the column's bound rather than failing the run on a server's absurd count.
    const added = (column: string, parameter: string) =>
      `CASE WHEN ${parameter}::bigint IS NULL THEN ${column}
            ELSE least(coalesce(${column}, 0) + ${parameter}::bigint, ${INT_MAX}) END`;
    await this.query(
      `WITH before AS (
         SELECT id, reserved_tokens FROM agent_runs WHERE workspace_id = $1 AND id = $2 FOR UPDATE),
       run AS (
         UPDATE agent_runs
            SET prompt_tokens = ${added('prompt_tokens', '$4')},
                completion_tokens = ${added('completion_tokens', '$5')},
                reasoning_tokens = ${added('reasoning_tokens', '$6')},
                reserved_tokens = greatest(before.reserved_tokens - $3::bigint, 0)
           FROM before WHERE agent_runs.id = before.id
         RETURNING agent_runs.workspace_id, ${RUN_MONTH} AS period_start,
                   least(before.reserved_tokens, $3::bigint) AS released)
       INSERT INTO workspace_run_tokens AS month_tokens (workspace_id, period_start, used_tokens)
       SELECT workspace_id, period_start, coalesce($4::bigint + $5::bigint, 0) FROM run
       ON CONFLICT (workspace_id, period_start) DO UPDATE
          SET used_tokens = month_tokens.used_tokens + EXCLUDED.used_tokens,
              reserved_tokens = greatest(month_tokens.reserved_tokens - (SELECT released FROM run), 0)`,
      [
        workspaceId,
        runId,
        held,
        usage?.promptTokens ?? null,
        usage?.completionTokens ?? null,
        usage?.reasoningTokens ?? null,
      ],
    );
  }

  async findByMessage(workspaceId: number, messageId: number): Promise<AgentRun | null> {
    const [row] = await this.query<RunRow>(
      'SELECT * FROM agent_runs WHERE workspace_id = $1 AND message_id = $2',
      [workspaceId, messageId],
    );
    if (!row) return null;
    return toRun(row, await this.actionsOfRuns([row]));
  }

  async finish(workspaceId: number, messageId: number, outcome: RunOutcome): Promise<boolean> {
    const [rows] = await this.db.manager().query<[{ holding: boolean }[], number]>(
      `UPDATE agent_runs SET status = $3, finished_at = now()
        WHERE workspace_id = $1 AND message_id = $2 AND status = 'running'
        RETURNING reserved_tokens > 0 AS holding`,
      [workspaceId, messageId, outcome],
    );
    return rows[0]?.holding ?? false;
  }

  async releaseHolds(workspaceId: number, messageId: number): Promise<void> {
    await this.query(
      releasingHolds(
        `SELECT id, reserved_tokens FROM agent_runs
          WHERE workspace_id = $1 AND message_id = $2 AND status <> 'running' AND reserved_tokens > 0
          FOR UPDATE`,
        null,
      ),
      [workspaceId, messageId],
    );
  }

  async releaseEndedHolds(limit: number): Promise<void> {
    await this.query(
      releasingHolds(
        `SELECT id, reserved_tokens FROM agent_runs
          WHERE reserved_tokens > 0 AND status <> 'running'
          ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        null,
      ),
      [limit],
    );
  }

  async heartbeat(runnerId: string): Promise<void> {
    await this.query(
      "UPDATE agent_runs SET runner_heartbeat_at = now() WHERE runner_id = $1 AND status = 'running'",
      [runnerId],
    );
  }

  async handOver(workspaceId: number, messageId: number, runnerId: string): Promise<void> {
    // Stale by any measure at once: the sweeps of the other processes take it on their next look.
    await this.query(
      `UPDATE agent_runs SET runner_id = NULL, runner_heartbeat_at = 'epoch'
        WHERE workspace_id = $1 AND message_id = $2 AND runner_id = $3 AND status = 'running'`,
      [workspaceId, messageId, runnerId],
    );
  }

  async recordStepText(workspaceId: number, runId: number, step: number, text: string): Promise<void> {
    await this.query(
      `UPDATE agent_runs SET step_texts = step_texts || jsonb_build_object($3::text, $4::text)
        WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, runId, String(step), text],
    );
  }

  async findStale(staleAfterMs: number, limit: number): Promise<AgentRun[]> {
    const rows = await this.query<RunRow>(
      `SELECT * FROM agent_runs WHERE status = 'running' AND ${STALE} ORDER BY id LIMIT $2`,
      [staleAfterMs, limit],
    );
    const actions = await this.actionsOfRuns(rows);
    return rows.map((row) => toRun(row, actions));
  }

  async takeOver(runnerId: string, runs: AgentRun[], staleAfterMs: number): Promise<Set<number>> {
    if (runs.length === 0) return new Set();
    // Their stopped runner's calls will never settle: what they held is given back.
    const [{ ids }] = await this.query<{ ids: number[] }>(
      releasingHolds(
        `SELECT r.id, r.reserved_tokens FROM agent_runs r
           JOIN unnest($3::int[], $4::int[]) AS t(id, workspace_id)
             ON r.id = t.id AND r.workspace_id = t.workspace_id
          WHERE r.status = 'running' AND r.${STALE} ORDER BY r.id FOR UPDATE OF r`,
        `runner_id = $2, runner_heartbeat_at = now()`,
      ),
      [staleAfterMs, runnerId, runs.map((run) => run.id), runs.map((run) => run.workspaceId)],
    );
    return new Set(ids);
  }

  async insertActions(actions: NewRunAction[]): Promise<RunAction[]> {
    if (actions.length === 0) return [];
    const saved = await this.actions.save(actions.map((action) => this.actions.create(action)));
    const runs = await this.runs.find({
      where: { id: In([...new Set(saved.map((action) => action.runId))]) },
      select: { id: true, conversationId: true, messageId: true },
    });
    const byId = new Map(runs.map((run) => [run.id, run]));
    // `save` answers the rows in the order given, with what the database set.
    return saved.map((row, index) => ({
      ...actions[index],
      id: row.id,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      executionDurationMs: null,
      conversationId: byId.get(row.runId)!.conversationId,
      messageId: byId.get(row.runId)!.messageId,
    }));
  }

  async findAction(workspaceId: number, id: number): Promise<RunAction | null> {
    const [row] = await this.query<ActionRow>(`${ACTIONS} WHERE a.workspace_id = $1 AND a.id = $2`, [
      workspaceId,
      id,
    ]);
    return row ? toAction(row) : null;
  }

  async findActionBySId(workspaceId: number, sId: string): Promise<RunAction | null> {
    const [row] = await this.query<ActionRow>(`${ACTIONS} WHERE a.workspace_id = $1 AND a.s_id = $2`, [
      workspaceId,
      sId,
    ]);
    return row ? toAction(row) : null;
  }

  async listActionsOfMessages(workspaceId: number, messageIds: number[]): Promise<RunAction[]> {
    if (messageIds.length === 0) return [];
    const rows = await this.query<ActionRow>(
      `${ACTIONS} WHERE r.workspace_id = $1 AND r.message_id = ANY($2::int[]) ORDER BY r.message_id, a.id`,
      [workspaceId, messageIds],
    );
    return rows.map(toAction);
  }

  async listBlocked(workspaceId: number, conversationId: number): Promise<RunAction[]> {
    const rows = await this.query<ActionRow>(
      `${ACTIONS} WHERE r.workspace_id = $1 AND r.conversation_id = $2
          AND a.status = 'blocked_validation_required' ORDER BY a.id`,
      [workspaceId, conversationId],
    );
    return rows.map(toAction);
  }

  async listAwaitingApprover(workspaceId: number, userId: number): Promise<RunAction[]> {
    const rows = await this.query<ActionRow>(
      `${ACTIONS} WHERE a.workspace_id = $1 AND a.approver_id = $2
          AND a.status = 'blocked_validation_required' ORDER BY a.id`,
      [workspaceId, userId],
    );
    return rows.map(toAction);
  }

  async awaitsApprover(workspaceId: number, conversationId: number, userId: number): Promise<boolean> {
    const [row] = await this.query<{ waits: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM agent_run_actions a JOIN agent_runs r ON r.id = a.run_id
          WHERE a.workspace_id = $1 AND r.conversation_id = $2 AND a.approver_id = $3
            AND a.status = 'blocked_validation_required') AS waits`,
      [workspaceId, conversationId, userId],
    );
    return row.waits;
  }

  async transitionAction(
    workspaceId: number,
    id: number,
    from: ActionStatus,
    to: ActionStatus,
  ): Promise<boolean> {
    const result = await this.actions.update({ workspaceId, id, status: from }, { status: to });
    return (result.affected ?? 0) > 0;
  }

  async markActionStarted(workspaceId: number, id: number): Promise<void> {
    await this.actions.update({ workspaceId, id, status: 'running' }, { approvalDeadline: null });
  }

  async settleAction(
    workspaceId: number,
    id: number,
    from: ActionStatus,
    outcome: ActionOutcome,
  ): Promise<boolean> {
    const result = await this.actions.update(
      { workspaceId, id, status: from },
      {
        status: outcome.status,
        output: outcome.output,
        executionDurationMs: outcome.executionDurationMs,
        approvalDeadline: null,
      },
    );
    return (result.affected ?? 0) > 0;
  }

  private async actionsOfRuns(runs: { id: number; workspace_id: number }[]): Promise<RunAction[]> {
    if (runs.length === 0) return [];
    const rows = await this.query<ActionRow>(`${ACTIONS} WHERE a.run_id = ANY($1::int[]) ORDER BY a.id`, [
      runs.map((run) => run.id),
    ]);
    return rows.map(toAction);
  }
}
