/**
 * Port: whether the workspace may start agent runs now (its monthly token budget); throws the
 * refusal, which the post answers with nothing written.
 */
export abstract class RunAllowance {
  abstract assertMayStartRuns(workspaceId: number): Promise<void>;
}
