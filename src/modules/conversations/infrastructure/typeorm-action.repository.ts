import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  ActionOutcome,
  ActionRepository,
} from 'src/modules/conversations/application/ports/action.repository';
import type { ActionStatus, AgentAction, NewAgentAction } from 'src/modules/conversations/domain/action';
import { AgentActionEntity } from 'src/modules/conversations/infrastructure/conversations.entities';
import { In } from 'typeorm';

function toAction(e: AgentActionEntity): AgentAction {
  return {
    id: e.id,
    sId: e.sId,
    workspaceId: e.workspaceId,
    conversationId: e.conversationId,
    messageId: e.messageId,
    step: e.step,
    toolCallId: e.toolCallId,
    functionCallName: e.functionCallName,
    mcpServerName: e.mcpServerName,
    toolName: e.toolName,
    params: e.params,
    status: e.status,
    output: e.output,
    createdAt: e.createdAt,
    executionDurationMs: e.executionDurationMs,
    approvalDeadline: e.approvalDeadline,
    approverId: e.approverId,
  };
}

@Injectable()
export class TypeormActionRepository extends ActionRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get repo() {
    return this.db.manager().getRepository(AgentActionEntity);
  }

  async insert(actions: NewAgentAction[]): Promise<AgentAction[]> {
    if (actions.length === 0) return [];
    const saved = await this.repo.save(actions.map((action) => this.repo.create(action)));
    return saved.map(toAction);
  }

  async listForMessages(workspaceId: number, messageIds: number[]): Promise<AgentAction[]> {
    if (messageIds.length === 0) return [];
    const rows = await this.repo.find({
      where: { workspaceId, messageId: In(messageIds) },
      order: { messageId: 'ASC', id: 'ASC' },
    });
    return rows.map(toAction);
  }

  async findBySId(workspaceId: number, sId: string): Promise<AgentAction | null> {
    const row = await this.repo.findOneBy({ workspaceId, sId });
    return row ? toAction(row) : null;
  }

  async findById(workspaceId: number, id: number): Promise<AgentAction | null> {
    const row = await this.repo.findOneBy({ workspaceId, id });
    return row ? toAction(row) : null;
  }

  async listBlocked(workspaceId: number, conversationId: number): Promise<AgentAction[]> {
    const rows = await this.repo.find({
      where: { workspaceId, conversationId, status: 'blocked_validation_required' },
      order: { id: 'ASC' },
    });
    return rows.map(toAction);
  }

  async transition(workspaceId: number, id: number, from: ActionStatus, to: ActionStatus): Promise<boolean> {
    const result = await this.repo.update({ workspaceId, id, status: from }, { status: to });
    return (result.affected ?? 0) > 0;
  }

  async markStarted(workspaceId: number, id: number): Promise<void> {
    await this.repo.update({ workspaceId, id, status: 'running' }, { approvalDeadline: null });
  }

  async settle(
    workspaceId: number,
    id: number,
    from: ActionStatus,
    outcome: ActionOutcome,
  ): Promise<boolean> {
    const result = await this.repo.update(
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

  async listAwaitingApprover(workspaceId: number, userId: number): Promise<AgentAction[]> {
    const rows = await this.repo.find({
      where: { workspaceId, approverId: userId, status: 'blocked_validation_required' },
      order: { id: 'ASC' },
    });
    return rows.map(toAction);
  }

  async awaitsApprover(workspaceId: number, conversationId: number, userId: number): Promise<boolean> {
    return this.repo.existsBy({
      workspaceId,
      conversationId,
      approverId: userId,
      status: 'blocked_validation_required',
    });
  }
}
