import type { AgentRun, RunOutcome } from 'src/modules/runtime/domain/agent-run';
import type { ModelUsage } from 'src/modules/runtime/application/ports/model-provider';
import type {
  ActionOutcome,
  ActionStatus,
  NewRunAction,
  RunAction,
} from 'src/modules/runtime/domain/run-action';

/** An agent message a runner starts generating, the member it acts for, and the agent and model it runs. */
export interface RunStart {
  workspaceId: number;
  conversationId: number;
  messageId: number;
  userId: number;
  /** The user message it answers. */
  answeredMessageId: number;
  agentSId: string;
  agentVersion: number;
  modelProviderId: string;
  modelId: string;
}

/**
 * Port: agent runs and their tool calls. Every change applies only from the state it expects
 * (several processes change one run) and says whether it did; every query takes the workspace id,
 * but for the sweeps of stale runs, which look across workspaces. Times of life are the
 * database's, so that processes whose clocks differ agree on what is stale.
 */
export abstract class AgentRunRepository {
  /**
   * Records these runs as `runnerId`'s, alive now, in the transaction that creates their agent
   * messages (a running run already recorded for a message is this runner's from now on). Answers
   * the runs' ids by agent message id.
   */
  abstract start(runnerId: string, runs: RunStart[]): Promise<Map<number, number>>;
  /** The run of an agent message, with its calls. */
  abstract findByMessage(workspaceId: number, messageId: number): Promise<AgentRun | null>;
  /**
   * A running run ends as its agent message did; answers whether its calls still hold tokens (false
   * too when it was no longer running). Those holds stay until `releaseHolds`, which takes the
   * month's row: a statement of its own, outside the transaction that records the outcome (which
   * may end several runs).
   */
  abstract finish(workspaceId: number, messageId: number, outcome: RunOutcome): Promise<boolean>;
  /** Gives back to the month's budget what the calls of an ended run still hold. */
  abstract releaseHolds(workspaceId: number, messageId: number): Promise<void>;
  /** `releaseHolds` of up to `limit` ended runs that still hold tokens (their process stopped first). */
  abstract releaseEndedHolds(limit: number): Promise<void>;
  /**
   * Holds `tokens` of the month's budget for a call of a running run, at once for every process:
   * only when the tokens the workspace's runs started that month used, and those their calls hold,
   * leave room for them under `monthlyTokens`. False, holding nothing, otherwise.
   */
  abstract reserveTokens(
    workspaceId: number,
    runId: number,
    tokens: number,
    monthlyTokens: number,
  ): Promise<boolean>;
  /**
   * A call ended: gives back the `held` tokens (as far as the run still holds them) and adds its
   * usage, if it reported one, to the run's totals and to its month's.
   */
  abstract settleTokens(
    workspaceId: number,
    runId: number,
    held: number,
    usage: ModelUsage | null,
  ): Promise<void>;
  /** Every running run of this runner is alive now. */
  abstract heartbeat(runnerId: string): Promise<void>;
  /**
   * This runner stops holding the run (its process stops): it is stale at once, for another
   * runner to take over and resume. Nothing when another runner holds it or it ended.
   */
  abstract handOver(workspaceId: number, messageId: number, runnerId: string): Promise<void>;
  /** Keeps the text a step of a running run wrote before its calls, for a runner that resumes it. */
  abstract recordStepText(workspaceId: number, runId: number, step: number, text: string): Promise<void>;
  /** Running runs silent for longer than `staleAfterMs`, oldest first, at most `limit`, with their calls. */
  abstract findStale(staleAfterMs: number, limit: number): Promise<AgentRun[]>;
  /**
   * Takes stale runs over for this runner, in one change, giving back the tokens their stopped
   * runners' calls held; answers the ids of those taken (not those no longer stale: another took
   * them, or they ended).
   */
  abstract takeOver(runnerId: string, runs: AgentRun[], staleAfterMs: number): Promise<Set<number>>;

  abstract insertActions(actions: NewRunAction[]): Promise<RunAction[]>;
  abstract findAction(workspaceId: number, id: number): Promise<RunAction | null>;
  abstract findActionBySId(workspaceId: number, sId: string): Promise<RunAction | null>;
  /** The calls of the runs of these agent messages, each message's in call order. */
  abstract listActionsOfMessages(workspaceId: number, messageIds: number[]): Promise<RunAction[]>;
  /** The calls of a conversation that wait for approval, oldest first. */
  abstract listBlocked(workspaceId: number, conversationId: number): Promise<RunAction[]>;
  /** The calls of the workspace that wait for `userId`'s approval, oldest first. */
  abstract listAwaitingApprover(workspaceId: number, userId: number): Promise<RunAction[]>;
  /** Whether a call of this conversation still waits for `userId`'s approval. */
  abstract awaitsApprover(workspaceId: number, conversationId: number, userId: number): Promise<boolean>;
  /** Moves a call from `from` to `to` (an approved call runs); false when it was no longer `from`. */
  abstract transitionAction(
    workspaceId: number,
    id: number,
    from: ActionStatus,
    to: ActionStatus,
  ): Promise<boolean>;
  /** A running call starts: it no longer counts as approved and not started. */
  abstract markActionStarted(workspaceId: number, id: number): Promise<void>;
  /** Settles a call that is `from`; false when it was not (another outcome came first). */
  abstract settleAction(
    workspaceId: number,
    id: number,
    from: ActionStatus,
    outcome: ActionOutcome,
  ): Promise<boolean>;
}
