import { Injectable } from '@nestjs/common';
import { OnEventInTransaction } from 'src/platform/events/in-process-events';
import { MemberRemoved } from 'src/modules/identity/identity.api';
import { AgentRepository } from 'src/modules/agents/application/ports/agent.repository';

/** Takes a member who leaves the workspace off the editors of its agents. */
@Injectable()
export class EditorRemovalService {
  constructor(private readonly agents: AgentRepository) {}

  /** A removed member edits nothing, even once added back. */
  @OnEventInTransaction(MemberRemoved)
  async dropRemovedEditor({ workspaceId, user }: MemberRemoved): Promise<void> {
    await this.agents.removeEditor(workspaceId, user.id);
  }
}
