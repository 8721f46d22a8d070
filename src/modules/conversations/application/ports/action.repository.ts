import type {
  ActionOutput,
  ActionStatus,
  AgentAction,
  NewAgentAction,
} from 'src/modules/conversations/domain/action';

/** How a running or waiting action ends: its status, output and time spent running. */
export interface ActionOutcome {
  status: Extract<ActionStatus, 'succeeded' | 'failed' | 'denied'>;
  output: ActionOutput;
  executionDurationMs: number;
}

/** Port: the tool calls of agent messages. Every query takes the workspace id. */
export abstract class ActionRepository {
  abstract insert(actions: NewAgentAction[]): Promise<AgentAction[]>;
  /** The actions of these agent messages, each message's in call order. */
  abstract listForMessages(workspaceId: number, messageIds: number[]): Promise<AgentAction[]>;
  abstract findBySId(workspaceId: number, sId: string): Promise<AgentAction | null>;
  abstract findById(workspaceId: number, id: number): Promise<AgentAction | null>;
  /** Actions waiting for approval in a conversation, oldest first. */
  abstract listBlocked(workspaceId: number, conversationId: number): Promise<AgentAction[]>;
  /** Moves the action from `from` to `to` (a waiting call approved runs); false when it was no longer `from`. */
  abstract transition(
    workspaceId: number,
    id: number,
    from: ActionStatus,
    to: ActionStatus,
  ): Promise<boolean>;
  /** A running action's call starts: it no longer counts as approved-but-not-run. */
  abstract markStarted(workspaceId: number, id: number): Promise<void>;
  /** Settles an action that is `from`; false when it was not (another outcome came first). */
  abstract settle(
    workspaceId: number,
    id: number,
    from: ActionStatus,
    outcome: ActionOutcome,
  ): Promise<boolean>;
  /** The calls of the workspace that wait for `userId`'s approval, oldest first. */
  abstract listAwaitingApprover(workspaceId: number, userId: number): Promise<AgentAction[]>;
  /** Whether a call of this conversation still waits for `userId`'s approval. */
  abstract awaitsApprover(workspaceId: number, conversationId: number, userId: number): Promise<boolean>;
}
