import { inTransactionEvent } from 'src/platform/events/in-process-events';
import type { User } from 'src/modules/identity/domain/user';
import type { Workspace } from 'src/modules/identity/domain/workspace';

/** A workspace was created with its global space and its first admin, in the current transaction. */
export interface WorkspaceCreated {
  workspace: Workspace;
  creator: User;
}
export const WorkspaceCreated = inTransactionEvent<WorkspaceCreated>('workspace.created');

/**
 * A member left the workspace, in the current transaction: membership, spaces and keys are gone;
 * what other contexts hold for them (scheduled wake-ups) goes with them or the removal fails.
 */
export interface MemberRemoved {
  workspaceId: number;
  user: User;
}
export const MemberRemoved = inTransactionEvent<MemberRemoved>('workspace.member_removed');
