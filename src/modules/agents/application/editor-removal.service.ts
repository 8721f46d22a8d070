import { Injectable } from '@nestjs/common';
import { MemberRemoved, OnEventInTransaction } from 'src/platform/events/in-process-events';
import { AgentRepository } from 'src/modules/agents/application/ports/agent.repository';

/** Takes a member who leaves the workspace off the editors of its agents. */
@Injectable()
export class EditorRemovalService {
  constructor(private readonly agents: AgentRepository) {}

  /** A removed member edits nothing, even once added back. */
  @OnEventInTransaction('workspace.member_removed')
  async dropRemovedEditor({ workspaceId, user }: MemberRemoved): Promise<void> {
    await this.agents.removeEditor(workspaceId, user.id);
  }
}
