import type { Clock } from 'src/platform/clock/clock';
import type { ModelUsage } from 'src/modules/runtime/application/ports/model-provider';
import { AgentRunRepository, RunStart } from 'src/modules/runtime/application/ports/agent-run.repository';
import { AgentRun, RunOutcome, RunStatus } from 'src/modules/runtime/domain/agent-run';
import type {
  ActionOutcome,
  ActionStatus,
  NewRunAction,
  RunAction,
} from 'src/modules/runtime/domain/run-action';
import { InMemoryTable } from 'test/fakes/in-memory-table';
import type { InMemoryUnitOfWork } from 'test/fakes/unit-of-work';

type RunRow = Omit<RunStart, 'userId'> & {
  id: number;
  userId: number | null;
  status: RunStatus;
  runnerId: string | null;
  heartbeatAt: Date | null;
  createdAt: Date;
  finishedAt: Date | null;
  promptTokens: number | null;
  completionTokens: number | null;
  reasoningTokens: number | null;
  reservedTokens: number;
  stepTexts: Record<number, string>;
};

/** A workspace's month of run tokens, as `workspace_run_tokens` holds it. */
interface MonthTokensRow {
  id: number;
  workspaceId: number;
  /** The month's first instant, UTC, in ISO 8601. */
  periodStart: string;
  usedTokens: number;
  reservedTokens: number;
}

type ActionRow = Omit<RunAction, 'conversationId' | 'messageId'>;

/**
 * Agent runs and their calls in memory, with the repository's guarded changes: each applies only
 * from the state it expects. Times of life are the shared clock's, as the database's would be.
 */
export class InMemoryAgentRunRepository extends AgentRunRepository {
  private readonly runs: InMemoryTable<RunRow>;
  private readonly actions: InMemoryTable<ActionRow>;
  private readonly months: InMemoryTable<MonthTokensRow>;

  constructor(private readonly options: { unitOfWork?: InMemoryUnitOfWork; clock: Clock }) {
    super();
    this.runs = new InMemoryTable(options.unitOfWork);
    this.actions = new InMemoryTable(options.unitOfWork);
    this.months = new InMemoryTable(options.unitOfWork);
  }

  async start(runnerId: string, runs: RunStart[]): Promise<Map<number, number>> {
    const ids = new Map<number, number>();
    for (const run of runs) {
      const [existing] = this.runs.select((row) => row.messageId === run.messageId);
      if (existing) {
        const [claimed] = this.runs.update(
          (row) => row.id === existing.id && row.status === 'running' && row.workspaceId === run.workspaceId,
          (row) => Object.assign(row, { runnerId, heartbeatAt: this.now(), userId: run.userId }),
        );
        if (claimed) ids.set(run.messageId, claimed.id);
        continue;
      }
      const row = this.runs.insert({
        id: this.runs.nextId(),
        ...run,
        status: 'running',
        runnerId,
        heartbeatAt: this.now(),
        createdAt: this.now(),
        finishedAt: null,
        promptTokens: null,
        completionTokens: null,
        reasoningTokens: null,
        reservedTokens: 0,
        stepTexts: {},
      });
      ids.set(run.messageId, row.id);
    }
    return ids;
  }

  async reserveTokens(
    workspaceId: number,
    runId: number,
    tokens: number,
    monthlyTokens: number,
  ): Promise<boolean> {
    const [run] = this.runs.select(
      (row) => row.workspaceId === workspaceId && row.id === runId && row.status === 'running',
    );
    if (!run) return false;
    const month = this.monthOf(run);
    if (month.usedTokens + month.reservedTokens + tokens > monthlyTokens) return false;
    this.months.update(
      (row) => row.id === month.id,
      (row) => (row.reservedTokens += tokens),
    );
    this.runs.update(
      (row) => row.id === runId,
      (row) => (row.reservedTokens += tokens),
    );
    return true;
  }

  async settleTokens(
    workspaceId: number,
    runId: number,
    held: number,
    usage: ModelUsage | null,
  ): Promise<void> {
    const [run] = this.runs.select((row) => row.workspaceId === workspaceId && row.id === runId);
    if (!run) return;
    const released = Math.min(run.reservedTokens, held);
    this.runs.update(
      (row) => row.id === runId,
      (row) =>
        Object.assign(row, {
          reservedTokens: row.reservedTokens - released,
          ...(usage && {
            promptTokens: (row.promptTokens ?? 0) + usage.promptTokens,
            completionTokens: (row.completionTokens ?? 0) + usage.completionTokens,
            reasoningTokens: (row.reasoningTokens ?? 0) + usage.reasoningTokens,
          }),
        }),
    );
    const month = this.monthOf(run);
    this.months.update(
      (row) => row.id === month.id,
      (row) => {
        row.reservedTokens = Math.max(row.reservedTokens - released, 0);
        row.usedTokens += usage ? usage.promptTokens + usage.completionTokens : 0;
      },
    );
  }

  async findByMessage(workspaceId: number, messageId: number): Promise<AgentRun | null> {
    const [row] = this.runs.select((run) => run.workspaceId === workspaceId && run.messageId === messageId);
    return row ? this.toRun(row) : null;
  }

  async finish(workspaceId: number, messageId: number, outcome: RunOutcome): Promise<boolean> {
    const changed = this.runs.update(
      (run) => run.workspaceId === workspaceId && run.messageId === messageId && run.status === 'running',
      (run) => Object.assign(run, { status: outcome, finishedAt: this.now() }),
    );
    return changed.some((run) => run.reservedTokens > 0);
  }

  async releaseHolds(workspaceId: number, messageId: number): Promise<void> {
    this.releasingHolds(
      (run) =>
        run.workspaceId === workspaceId &&
        run.messageId === messageId &&
        run.status !== 'running' &&
        run.reservedTokens > 0,
      () => {},
    );
  }

  async releaseEndedHolds(limit: number): Promise<void> {
    const ended = this.runs
      .select((run) => run.status !== 'running' && run.reservedTokens > 0)
      .slice(0, limit)
      .map((run) => run.id);
    this.releasingHolds(
      (run) => ended.includes(run.id),
      () => {},
    );
  }

  async heartbeat(runnerId: string): Promise<void> {
    this.runs.update(
      (run) => run.runnerId === runnerId && run.status === 'running',
      (run) => (run.heartbeatAt = this.now()),
    );
  }

  async handOver(workspaceId: number, messageId: number, runnerId: string): Promise<void> {
    this.runs.update(
      (run) =>
        run.workspaceId === workspaceId &&
        run.messageId === messageId &&
        run.runnerId === runnerId &&
        run.status === 'running',
      (run) => Object.assign(run, { runnerId: null, heartbeatAt: new Date(0) }),
    );
  }

  async recordStepText(workspaceId: number, runId: number, step: number, text: string): Promise<void> {
    this.runs.update(
      (run) => run.workspaceId === workspaceId && run.id === runId,
      (run) => (run.stepTexts = { ...run.stepTexts, [step]: text }),
    );
  }

  async findStale(staleAfterMs: number, limit: number): Promise<AgentRun[]> {
    return this.runs
      .select((run) => run.status === 'running' && this.isStale(run, staleAfterMs))
      .slice(0, limit)
      .map((run) => this.toRun(run));
  }

  async takeOver(runnerId: string, runs: AgentRun[], staleAfterMs: number): Promise<Set<number>> {
    const taken = new Set<number>();
    for (const run of runs) {
      const changed = this.releasingHolds(
        (row) =>
          row.id === run.id &&
          row.workspaceId === run.workspaceId &&
          row.status === 'running' &&
          this.isStale(row, staleAfterMs),
        (row) => Object.assign(row, { runnerId, heartbeatAt: this.now() }),
      );
      if (changed) taken.add(run.id);
    }
    return taken;
  }

  async insertActions(actions: NewRunAction[]): Promise<RunAction[]> {
    return actions.map((action) =>
      this.withRun(
        this.actions.insert({
          ...action,
          id: this.actions.nextId(),
          createdAt: this.now(),
          updatedAt: this.now(),
          executionDurationMs: null,
        }),
      ),
    );
  }

  async findAction(workspaceId: number, id: number): Promise<RunAction | null> {
    return this.listActions((action) => action.workspaceId === workspaceId && action.id === id)[0] ?? null;
  }

  async findActionBySId(workspaceId: number, sId: string): Promise<RunAction | null> {
    return this.listActions((action) => action.workspaceId === workspaceId && action.sId === sId)[0] ?? null;
  }

  async listActionsOfMessages(workspaceId: number, messageIds: number[]): Promise<RunAction[]> {
    return this.listActions((action) => action.workspaceId === workspaceId)
      .filter((action) => messageIds.includes(action.messageId))
      .sort((a, b) => a.messageId - b.messageId || a.id - b.id);
  }

  async listBlocked(workspaceId: number, conversationId: number): Promise<RunAction[]> {
    return this.listActions(
      (action) => action.workspaceId === workspaceId && action.status === 'blocked_validation_required',
    ).filter((action) => action.conversationId === conversationId);
  }

  async listAwaitingApprover(workspaceId: number, userId: number): Promise<RunAction[]> {
    return this.listActions(
      (action) =>
        action.workspaceId === workspaceId &&
        action.approverId === userId &&
        action.status === 'blocked_validation_required',
    );
  }

  async awaitsApprover(workspaceId: number, conversationId: number, userId: number): Promise<boolean> {
    return (await this.listAwaitingApprover(workspaceId, userId)).some(
      (action) => action.conversationId === conversationId,
    );
  }

  async transitionAction(
    workspaceId: number,
    id: number,
    from: ActionStatus,
    to: ActionStatus,
  ): Promise<boolean> {
    return (
      this.actions.update(
        (action) => action.workspaceId === workspaceId && action.id === id && action.status === from,
        (action) => Object.assign(action, { status: to, updatedAt: this.now() }),
      ).length > 0
    );
  }

  async markActionStarted(workspaceId: number, id: number): Promise<void> {
    this.actions.update(
      (action) => action.workspaceId === workspaceId && action.id === id && action.status === 'running',
      (action) => Object.assign(action, { approvalDeadline: null, updatedAt: this.now() }),
    );
  }

  async settleAction(
    workspaceId: number,
    id: number,
    from: ActionStatus,
    outcome: ActionOutcome,
  ): Promise<boolean> {
    return (
      this.actions.update(
        (action) => action.workspaceId === workspaceId && action.id === id && action.status === from,
        (action) => Object.assign(action, { ...outcome, approvalDeadline: null, updatedAt: this.now() }),
      ).length > 0
    );
  }

  /** The runs recorded, as their rows hold them (a test reads what the runtime wrote). */
  allRuns(): RunRow[] {
    return this.runs.select();
  }

  /** A workspace's tokens of the month `periodStart` (ISO 8601) starts: used, and held by calls under way. */
  monthTokens(workspaceId: number, periodStart: string): { usedTokens: number; reservedTokens: number } {
    const [month] = this.months.select(
      (row) => row.workspaceId === workspaceId && row.periodStart === periodStart,
    );
    return { usedTokens: month?.usedTokens ?? 0, reservedTokens: month?.reservedTokens ?? 0 };
  }

  /** A run's last sign of life goes back `ms` (its runner fell silent that long ago). */
  ageHeartbeat(messageId: number, ms: number): void {
    this.runs.update(
      (run) => run.messageId === messageId,
      (run) => (run.heartbeatAt = new Date((run.heartbeatAt?.getTime() ?? 0) - ms)),
    );
  }

  private listActions(where: (action: ActionRow) => boolean): RunAction[] {
    return this.actions.select(where).map((action) => this.withRun(action));
  }

  private withRun(action: ActionRow): RunAction {
    const [run] = this.runs.select((row) => row.id === action.runId);
    return { ...action, conversationId: run.conversationId, messageId: run.messageId };
  }

  private toRun(row: RunRow): AgentRun {
    return new AgentRun({
      ...row,
      actions: this.listActions((action) => action.runId === row.id),
    });
  }

  /** The month a run's tokens count in (the one it started in, UTC), its row made when missing. */
  private monthOf(run: RunRow): MonthTokensRow {
    const start = run.createdAt;
    const periodStart = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1)).toISOString();
    const [month] = this.months.select(
      (row) => row.workspaceId === run.workspaceId && row.periodStart === periodStart,
    );
    return (
      month ??
      this.months.insert({
        id: this.months.nextId(),
        workspaceId: run.workspaceId,
        periodStart,
        usedTokens: 0,
        reservedTokens: 0,
      })
    );
  }

  /** Changes the runs `where` selects, giving back to their months what their calls held. */
  private releasingHolds(where: (run: RunRow) => boolean, change: (run: RunRow) => void): boolean {
    const changed = this.runs.update(where, (run) => {
      change(run);
      const month = this.monthOf(run);
      this.months.update(
        (row) => row.id === month.id,
        (row) => (row.reservedTokens = Math.max(row.reservedTokens - run.reservedTokens, 0)),
      );
      run.reservedTokens = 0;
    });
    return changed.length > 0;
  }

  private isStale(run: RunRow, staleAfterMs: number): boolean {
    return run.heartbeatAt !== null && run.heartbeatAt.getTime() < this.now().getTime() - staleAfterMs;
  }

  private now(): Date {
    return this.options.clock.now();
  }
}
