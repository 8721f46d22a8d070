import { Injectable } from '@nestjs/common';
import { OnEventInTransaction } from 'src/platform/events/in-process-events';
import { generateSId } from 'src/platform/ids/sid';
import { WorkspaceCreated } from 'src/modules/identity/identity.api';
import { AgentRepository } from 'src/modules/agents/application/ports/agent.repository';
import { globalAgentDrafts } from 'src/modules/agents/domain/global-agents';

/** Gives every new workspace the built-in agents. */
@Injectable()
export class GlobalAgentsService {
  constructor(private readonly agents: AgentRepository) {}

  /** Created in the workspace's creating transaction: a workspace never exists without them. */
  @OnEventInTransaction(WorkspaceCreated)
  async createGlobalAgents({ workspace }: WorkspaceCreated): Promise<void> {
    for (const draft of globalAgentDrafts(workspace.id, generateSId)) await this.agents.insertVersion(draft);
  }
}
