import { Injectable } from '@nestjs/common';
import { AnswerAction, AnswerActions } from 'src/modules/conversations/application/ports/answer-actions';
import { AgentRunRepository } from 'src/modules/runtime/application/ports/agent-run.repository';

/** Conversations' `AnswerActions` port: the calls of the runs of agent messages, as their views show them. */
@Injectable()
export class RunActionsReader extends AnswerActions {
  constructor(private readonly runs: AgentRunRepository) {
    super();
  }

  listForMessages(workspaceId: number, messageIds: number[]): Promise<AnswerAction[]> {
    return this.runs.listActionsOfMessages(workspaceId, messageIds);
  }
}
