import { Caller } from 'src/platform/auth/caller';
import type { ActionView, BlockedActionView } from 'src/modules/conversations/application/views/action.view';

/** What `validate-action` takes. */
export type ApprovalAnswer = 'approved' | 'rejected';

/**
 * Port: the answers to tool calls that wait for approval, and what waits, as the routes of a
 * conversation's messages offer them. The runtime, which owns the calls and their approvals,
 * answers it; conversations only serve it.
 */
export abstract class ActionApprovalsService {
  /**
   * Answers a call that waits for approval: approved, it moves to `running` (its run executes it);
   * rejected, it is `denied` at once. The run's member or an admin may answer; an answer to a call
   * that no longer waits is a conflict.
   */
  abstract validate(
    caller: Caller,
    conversationSId: string,
    messageSId: string,
    actionSId: string,
    answer: ApprovalAnswer,
  ): Promise<ActionView>;

  /** The calls of a conversation that wait for approval, oldest first. */
  abstract blocked(caller: Caller, conversationSId: string): Promise<BlockedActionView[]>;
}
