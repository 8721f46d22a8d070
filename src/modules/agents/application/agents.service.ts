import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { AgentDetails, AgentDetailsLoader } from 'src/modules/agents/application/agent-details.loader';
import { AgentRepository } from 'src/modules/agents/application/ports/agent.repository';
import { AgentNotFound } from 'src/modules/agents/domain/agents.errors';

/** The agents as other contexts use them: described for a caller, and resolved from mentions. */
@Injectable()
export class AgentsService {
  constructor(
    private readonly agents: AgentRepository,
    private readonly details: AgentDetailsLoader,
  ) {}

  /**
   * The agents a message may mention: live (active) agents of the workspace the caller can read.
   * An archived agent is 404 `agent_configuration_not_found`, as Dust answers; anything else is a
   * 400 naming it and `field`, the request field that gave the sIds.
   */
  async resolveMentions(caller: Caller, sIds: string[], field = 'mentions'): Promise<AgentDetails[]> {
    if (sIds.length === 0) return [];
    const found = await this.describe(caller, sIds);
    const archived = found.find((details) => details.agent.status === 'archived');
    if (archived) throw new AgentNotFound(archived.agent.sId);
    const usable = found.filter((details) => details.agent.status === 'active' && details.canRead);
    const missing = sIds.filter((sId) => !usable.some((details) => details.agent.sId === sId));
    if (missing.length > 0) {
      throw new InvalidRequestError(`${field}: no usable agent with configurationId ${missing.join(', ')}.`);
    }
    return usable;
  }

  /** The latest versions of these agents as the caller sees them; unknown sIds are left out. */
  async describe(caller: Caller, sIds: string[]): Promise<AgentDetails[]> {
    const options = { withAuthors: false, withEditors: false };
    const agents = await this.agents.listLatest(
      caller.workspaceId,
      { sIds: [...new Set(sIds)] },
      AgentDetailsLoader.readerFor(caller, options),
    );
    return this.details.complete(caller, agents, options);
  }
}
