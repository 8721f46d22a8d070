import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { ForbiddenError } from 'src/platform/errors/domain-error';
import { AgentDetails, AgentDetailsLoader } from 'src/modules/agents/application/agent-details.loader';
import { AgentRepository, LatestVersionFilter } from 'src/modules/agents/application/ports/agent.repository';
import type { AgentVersion } from 'src/modules/agents/domain/agent-configuration';
import { AgentNotFound } from 'src/modules/agents/domain/agents.errors';

export const AGENT_VIEWS = [
  'all',
  'list',
  'favorites',
  'published',
  'admin_internal',
  'global',
  'workspace',
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
    const agent = await this.agents.findLatest(caller.workspaceId, sId);
    if (!agent) throw new AgentNotFound(sId);
    return (await this.details.load(caller, [agent], { withAuthors: true, withEditors: true }))[0];
  }

  async list(caller: Caller, options: ListOptions): Promise<AgentDetails[]> {
    if (options.view === 'admin_internal' && !caller.isAdmin) {
      throw new ForbiddenError('The admin_internal view is for workspace admins.');
    }
    const [candidates, favorites, edited] = await Promise.all([
      this.agents.listLatest(caller.workspaceId, this.filterFor(options.view)),
      this.agents.favoritesOf(caller.workspaceId, caller.userId),
      this.agents.agentsEditedBy(caller.workspaceId, caller.userId),
    ]);
    const editedSet = new Set(edited);
    const visible = candidates.filter((agent) => this.inView(agent, options.view, favorites, editedSet));
    const sorted = this.sort(visible, options.sort ?? 'priority', favorites);
    const limited = options.limit === undefined ? sorted : sorted.slice(0, options.limit);
    return this.details.load(caller, limited, options, favorites);
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
    }
  }

  private inView(agent: AgentVersion, view: AgentView, favorites: Set<string>, edited: Set<string>): boolean {
    switch (view) {
      case 'list':
        // Published agents, plus the hidden agents and drafts the caller edits.
        return (agent.status === 'active' && agent.scope !== 'hidden') || edited.has(agent.sId);
      case 'favorites':
        return favorites.has(agent.sId);
      case 'all':
      case 'published':
      case 'workspace':
      case 'global':
      case 'admin_internal':
        return true;
    }
  }

  private sort(agents: AgentVersion[], sort: AgentSort, favorites: Set<string>): AgentVersion[] {
    const byName = (a: AgentVersion, b: AgentVersion) =>
      NAME_ORDER.compare(a.name, b.name) || a.sId.localeCompare(b.sId);
    if (sort === 'alphabetical') return [...agents].sort(byName);
    // Priority: the caller's favourites, then the built-in agents, then the rest, each by name.
    const rank = (agent: AgentVersion) => (favorites.has(agent.sId) ? 0 : agent.scope === 'global' ? 1 : 2);
    return [...agents].sort((a, b) => rank(a) - rank(b) || byName(a, b));
  }
}
