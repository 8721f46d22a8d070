import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { ForbiddenError } from 'src/platform/errors/domain-error';
import { AgentDetails, AgentDetailsLoader } from 'src/modules/agents/application/agent-details.loader';
import {
  AgentRepository,
  LatestVersionFilter,
  RelatedAgent,
} from 'src/modules/agents/application/ports/agent.repository';
import { AgentNotFound } from 'src/modules/agents/domain/agents.errors';

export const AGENT_VIEWS = [
  'all',
  'list',
  'favorites',
  'published',
  'admin_internal',
  'global',
  'workspace',
  'archived',
] as const;
export type AgentView = (typeof AGENT_VIEWS)[number];
export const AGENT_SORTS = ['priority', 'alphabetical'] as const;
export type AgentSort = (typeof AGENT_SORTS)[number];

export interface ListOptions {
  view: AgentView;
  limit?: number;
  sort?: AgentSort;
  withAuthors: boolean;
  withEditors: boolean;
  withUsage?: boolean;
  withFeedbacks?: boolean;
}

/** One collator for every comparison: localeCompare with options builds a new one per call. */
const NAME_ORDER = new Intl.Collator('en', { sensitivity: 'base' });

/** The agent configurations as the API reads them: one agent, or a view of the list. */
@Injectable()
export class AgentQueriesService {
  constructor(
    private readonly agents: AgentRepository,
    private readonly details: AgentDetailsLoader,
  ) {}

  async get(caller: Caller, sId: string): Promise<AgentDetails> {
    const options = { withAuthors: true, withEditors: true };
    const [found] = await this.agents.listLatest(
      caller.workspaceId,
      { sIds: [sId] },
      AgentDetailsLoader.readerFor(caller, options),
    );
    if (!found) throw new AgentNotFound(sId);
    return (await this.details.complete(caller, [found], options))[0];
  }

  /**
   * An agent's versions, newest first, as the caller sees them (private form): those who can read
   * the agent, archived or not.
   */
  async history(caller: Caller, sId: string, limit: number): Promise<AgentDetails[]> {
    const latest = await this.get(caller, sId);
    if (!latest.canRead) throw new AgentNotFound(sId);
    const versions = await this.agents.listVersions(caller.workspaceId, sId, limit);
    return this.details.load(caller, versions, { withAuthors: false, withEditors: false });
  }

  async list(caller: Caller, options: ListOptions): Promise<AgentDetails[]> {
    if (options.view === 'admin_internal' && !caller.isAdmin) {
      throw new ForbiddenError('The admin_internal view is for workspace admins.');
    }
    const candidates = await this.agents.listLatest(
      caller.workspaceId,
      this.filterFor(options.view),
      AgentDetailsLoader.readerFor(caller, options),
    );
    const visible = candidates.filter((related) => this.inView(caller, related, options.view));
    const sorted = this.sort(visible, options.sort ?? 'priority');
    const limited = options.limit === undefined ? sorted : sorted.slice(0, options.limit);
    return this.details.complete(caller, limited, options);
  }

  private filterFor(view: AgentView): LatestVersionFilter {
    switch (view) {
      case 'all':
      case 'favorites':
        return { scopes: ['visible', 'global'], statuses: ['active'] };
      case 'list':
        return { statuses: ['active', 'draft'] };
      case 'published':
      case 'workspace':
        return { scopes: ['visible'], statuses: ['active'] };
      case 'global':
        return { scopes: ['global'], statuses: ['active'] };
      case 'admin_internal':
        return { statuses: ['active', 'draft'] };
      case 'archived':
        return { statuses: ['archived'] };
    }
  }

  private inView(caller: Caller, { agent, relations }: RelatedAgent, view: AgentView): boolean {
    switch (view) {
      case 'list':
        // Published agents, plus the hidden agents and drafts the caller edits.
        return (
          (agent.status === 'active' && agent.scope !== 'hidden') ||
          relations.editorIds.includes(caller.userId)
        );
      case 'favorites':
        return relations.favorite;
      case 'archived':
        // As `list`: hidden ones only for their editors (and admins, who may edit every agent).
        return agent.scope !== 'hidden' || caller.isAdmin || relations.editorIds.includes(caller.userId);
      case 'all':
      case 'published':
      case 'workspace':
      case 'global':
      case 'admin_internal':
        return true;
    }
  }

  private sort(agents: RelatedAgent[], sort: AgentSort): RelatedAgent[] {
    const byName = ({ agent: a }: RelatedAgent, { agent: b }: RelatedAgent) =>
      NAME_ORDER.compare(a.name, b.name) || a.sId.localeCompare(b.sId);
    if (sort === 'alphabetical') return [...agents].sort(byName);
    // Priority: the caller's favourites, then the built-in agents, then the rest, each by name.
    const rank = ({ agent, relations }: RelatedAgent) =>
      relations.favorite ? 0 : agent.scope === 'global' ? 1 : 2;
    return [...agents].sort((a, b) => rank(a) - rank(b) || byName(a, b));
  }
}
