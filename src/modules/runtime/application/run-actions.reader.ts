import { Injectable } from '@nestjs/common';
import { AgentRunRepository } from 'src/modules/runtime/application/ports/agent-run.repository';
import type { RunAction } from 'src/modules/runtime/domain/run-action';

/**
 * The calls of the runs of agent messages, as their views show them: it answers conversations'
 * `AnswerActions` port (bound in src/composition, which checks that it fits).
 */
@Injectable()
export class RunActionsReader {
  constructor(private readonly runs: AgentRunRepository) {}

  /** The calls of these agent messages, each message's in call order. */
  listForMessages(workspaceId: number, messageIds: number[]): Promise<RunAction[]> {
    return this.runs.listActionsOfMessages(workspaceId, messageIds);
  }
}
