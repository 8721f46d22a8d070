import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { ConflictError, ForbiddenError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { MemberRemoved, OnEventInTransaction, WorkspaceCreated } from 'src/platform/events/in-process-events';
import { generatePrefixedSId, generateSId } from 'src/platform/ids/sid';
import { SpacesService } from 'src/modules/identity/application/spaces.service';
import { WorkspacesService } from 'src/modules/identity/application/workspaces.service';
import { CatalogueService } from 'src/modules/agents/application/catalogue.service';
import {
  AgentStatistics,
  AgentUsage,
  FeedbackCounts,
} from 'src/modules/agents/application/ports/agent-statistics';
import { AgentRepository, LatestVersionFilter } from 'src/modules/agents/application/ports/agent.repository';
import { CatalogueRepository } from 'src/modules/agents/application/ports/catalogue.repository';
import {
  AgentModel,
  AgentStatus,
  AgentVersion,
  AgentVersionDraft,
  DEFAULT_MAX_STEPS_PER_RUN,
  ResolvedAction,
  defaultPictureUrl,
  isEditableBy,
  isReadableBy,
  requestedSpaceIds,
} from 'src/modules/agents/domain/agent-configuration';
import { AgentNotFound } from 'src/modules/agents/domain/agents.errors';
import type { Tag, TagKind } from 'src/modules/agents/domain/catalogue';
import { globalAgentDrafts } from 'src/modules/agents/domain/global-agents';
import { SkippedAction, ToolsetEntry, resolveToolset } from 'src/modules/agents/domain/toolset-resolution';

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

export interface TagReference {
  name: string;
  kind?: TagKind;
}

export interface EditorReference {
  userId?: string;
  email?: string;
}

export interface NewAgent {
  name: string;
  description: string;
  instructions: string;
  pictureUrl?: string;
  status?: Exclude<AgentStatus, 'archived'>;
  scope: 'visible' | 'hidden';
  model: Omit<AgentModel, 'reasoningEffort'> & Partial<Pick<AgentModel, 'reasoningEffort'>>;
  actions?: ToolsetEntry[];
  maxStepsPerRun?: number;
  templateId?: string | null;
  tags?: TagReference[];
  editors?: EditorReference[];
  skills?: { sId: string }[];
}

export interface AgentPatch {
  userFavorite?: boolean;
  name?: string;
  description?: string;
  scope?: 'visible' | 'hidden';
  pictureUrl?: string;
  maxStepsPerRun?: number;
  visualizationEnabled?: boolean;
  instructions?: string;
  generation?: Partial<AgentModel>;
  tags?: TagReference[];
  editors?: EditorReference[];
  skills?: { sId: string }[];
  toolset?: ToolsetEntry[];
}

export interface ListOptions {
  view: AgentView;
  limit?: number;
  sort?: AgentSort;
  withAuthors: boolean;
  withEditors: boolean;
  withUsage?: boolean;
  withFeedbacks?: boolean;
}

/** The window of the usage and feedback counts: 30 days. */
export const USAGE_PERIOD_SEC = 30 * 24 * 3600;

export interface EditorSummary {
  sId: string;
  fullName: string;
  image: string;
}

/** An agent version with everything its two wire forms need, for one caller. */
export interface AgentDetails {
  agent: AgentVersion;
  tags: Tag[];
  versionAuthorSId: string | null;
  userFavorite: boolean;
  canRead: boolean;
  canEdit: boolean;
  requestedSpaceIds: string[];
  editors?: EditorSummary[];
  lastAuthors?: string[];
  usage?: AgentUsage & { timePeriodSec: number };
  feedbacks?: FeedbackCounts;
}

const LAST_AUTHORS = 3;
/** One collator for every comparison: localeCompare with options builds a new one per call. */
const NAME_ORDER = new Intl.Collator('en', { sensitivity: 'base' });

@Injectable()
export class AgentsService {
  constructor(
    private readonly agents: AgentRepository,
    private readonly catalogue: CatalogueRepository,
    private readonly catalogueService: CatalogueService,
    private readonly workspaces: WorkspacesService,
    private readonly spaces: SpacesService,
    private readonly statistics: AgentStatistics,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** A new workspace starts with the global agents, created in its creating transaction. */
  @OnEventInTransaction('workspace.created')
  async createGlobalAgents({ workspace }: WorkspaceCreated): Promise<void> {
    for (const draft of globalAgentDrafts(workspace.id, generateSId)) await this.agents.insertVersion(draft);
  }

  /** A removed member edits nothing, even once added back. */
  @OnEventInTransaction('workspace.member_removed')
  async dropRemovedEditor({ workspaceId, user }: MemberRemoved): Promise<void> {
    await this.agents.removeEditor(workspaceId, user.id);
  }

  async create(caller: Caller, input: NewAgent): Promise<AgentDetails> {
    if (!caller.isBuilder) throw new ForbiddenError('Only builders and admins can create agents.');
    const agent = await this.unitOfWork.run(async () => {
      if (await this.agents.liveNameTaken(caller.workspaceId, input.name, null)) {
        throw new InvalidRequestError(
          `assistant.name: an active agent named "${input.name}" already exists.`,
        );
      }
      const actions = await this.resolveActionsStrictly(caller, input.actions ?? []);
      const tags = await this.resolveTags(caller, input.tags ?? []);
      const skillIds = await this.resolveSkills(caller, input.skills ?? [], 'assistant.skills');
      const editorIds = await this.resolveEditors(caller, input.editors ?? [], 'assistant.editors');
      const sId = generateSId();
      const created = await this.agents.insertVersion({
        sId,
        workspaceId: caller.workspaceId,
        version: 0,
        versionAuthorId: caller.userId,
        name: input.name,
        description: input.description,
        instructions: input.instructions,
        pictureUrl: input.pictureUrl ?? defaultPictureUrl(sId),
        status: input.status ?? 'active',
        scope: input.scope,
        model: {
          providerId: input.model.providerId,
          modelId: input.model.modelId,
          temperature: input.model.temperature,
          reasoningEffort: input.model.reasoningEffort ?? 'none',
        },
        actions,
        maxStepsPerRun: input.maxStepsPerRun ?? DEFAULT_MAX_STEPS_PER_RUN,
        visualizationEnabled: false,
        templateId: input.templateId ?? null,
        tagIds: tags.map((tag) => tag.id),
        skillIds,
      });
      if (!created) throw new ConflictError('The agent could not be created; try again.');
      await this.agents.replaceEditors(caller.workspaceId, sId, editorIds);
      return created;
    });
    return (await this.details(caller, [agent], { withAuthors: false, withEditors: false }))[0];
  }

  /**
   * The agents a message may mention: live (active) agents of the workspace the caller can read.
   * Anything else is a 400 naming it and `field`, the request field that gave the sIds.
   */
  async resolveMentions(caller: Caller, sIds: string[], field = 'mentions'): Promise<AgentDetails[]> {
    if (sIds.length === 0) return [];
    const found = await this.describe(caller, sIds);
    const usable = found.filter((details) => details.agent.status === 'active' && details.canRead);
    const missing = sIds.filter((sId) => !usable.some((details) => details.agent.sId === sId));
    if (missing.length > 0) {
      throw new InvalidRequestError(`${field}: no usable agent with configurationId ${missing.join(', ')}.`);
    }
    return usable;
  }

  /** The latest versions of these agents as the caller sees them; unknown sIds are left out. */
  async describe(caller: Caller, sIds: string[]): Promise<AgentDetails[]> {
    const agents = await this.agents.listLatest(caller.workspaceId, { sIds: [...new Set(sIds)] });
    return this.details(caller, agents, { withAuthors: false, withEditors: false });
  }

  async get(caller: Caller, sId: string): Promise<AgentDetails> {
    const agent = await this.agents.findLatest(caller.workspaceId, sId);
    if (!agent) throw new AgentNotFound(sId);
    return (await this.details(caller, [agent], { withAuthors: true, withEditors: true }))[0];
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
    return this.details(caller, limited, options, favorites);
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

  async update(
    caller: Caller,
    sId: string,
    patch: AgentPatch,
  ): Promise<{ details: AgentDetails; skipped: SkippedAction[] }> {
    const current = await this.agents.findLatest(caller.workspaceId, sId);
    // Whatever the patch, even a favourite alone: its answer shows the agent's tools and spaces.
    if (!current || !(await this.isReadable(caller, current))) throw new AgentNotFound(sId);
    const { userFavorite, editors, ...versioned } = patch;
    const changesVersion = Object.values(versioned).some((value) => value !== undefined);
    if (editors !== undefined || changesVersion) await this.requireEditRights(caller, current);

    let skipped: SkippedAction[] = [];
    const agent = await this.unitOfWork.run(async () => {
      if (userFavorite !== undefined) {
        await this.agents.setFavorite(caller.workspaceId, sId, caller.userId, userFavorite);
      }
      if (editors !== undefined) {
        const editorIds = await this.resolveEditors(caller, editors, 'editors');
        await this.agents.replaceEditors(caller.workspaceId, sId, editorIds);
      }
      if (!changesVersion) return current;
      await this.agents.lockAgent(caller.workspaceId, sId);
      const latest = await this.agents.findLatest(caller.workspaceId, sId);
      if (!latest) throw new AgentNotFound(sId);
      if (latest.status === 'archived') throw new InvalidRequestError('An archived agent cannot be updated.');
      const next = await this.nextVersion(caller, latest, versioned);
      skipped = next.skipped;
      await this.agents.archiveVersion(caller.workspaceId, latest.id);
      const inserted = await this.agents.insertVersion(next.draft);
      if (!inserted) throw new ConflictError('The agent changed during the update; try again.');
      return inserted;
    });
    const [details] = await this.details(caller, [agent], { withAuthors: false, withEditors: false });
    return { details, skipped };
  }

  private async nextVersion(
    caller: Caller,
    latest: AgentVersion,
    patch: Omit<AgentPatch, 'userFavorite' | 'editors'>,
  ): Promise<{ draft: AgentVersionDraft; skipped: SkippedAction[] }> {
    if (patch.name !== undefined && patch.name !== latest.name) {
      if (await this.agents.liveNameTaken(caller.workspaceId, patch.name, latest.sId)) {
        throw new InvalidRequestError(`agent.handle: an active agent named "${patch.name}" already exists.`);
      }
    }
    let actions: ResolvedAction[] = latest.actions;
    let skipped: SkippedAction[] = [];
    if (patch.toolset !== undefined) {
      const resolved = resolveToolset(
        patch.toolset,
        await this.catalogueService.remoteServersWithViews(caller),
        await this.accessibleSpaceIds(caller),
      );
      actions = resolved.actions;
      skipped = resolved.skipped;
    }
    const tagIds =
      patch.tags === undefined
        ? latest.tagIds
        : (await this.resolveTags(caller, patch.tags)).map((tag) => tag.id);
    const skillIds =
      patch.skills === undefined ? latest.skillIds : await this.resolveSkills(caller, patch.skills, 'skills');
    const { id: _id, versionCreatedAt: _createdAt, ...base } = latest;
    const draft: AgentVersionDraft = {
      ...base,
      version: latest.version + 1,
      versionAuthorId: caller.userId,
      name: patch.name ?? latest.name,
      description: patch.description ?? latest.description,
      instructions: patch.instructions ?? latest.instructions,
      pictureUrl: patch.pictureUrl ?? latest.pictureUrl,
      scope: patch.scope ?? latest.scope,
      model: { ...latest.model, ...definedOnly(patch.generation ?? {}) },
      actions,
      maxStepsPerRun: patch.maxStepsPerRun ?? latest.maxStepsPerRun,
      visualizationEnabled: patch.visualizationEnabled ?? latest.visualizationEnabled,
      tagIds,
      skillIds,
    };
    return { draft, skipped };
  }

  private async isReadable(caller: Caller, agent: AgentVersion): Promise<boolean> {
    const [editors, accessibleSpaceIds] = await this.unitOfWork.all([
      () => this.agents.editorsOf(caller.workspaceId, [agent.sId]),
      () => this.accessibleSpaceIds(caller),
    ]);
    const isEditor = (editors.get(agent.sId) ?? []).includes(caller.userId);
    return isReadableBy(agent, { isAdmin: caller.isAdmin, isEditor, accessibleSpaceIds });
  }

  private async requireEditRights(caller: Caller, agent: AgentVersion): Promise<void> {
    if (agent.scope === 'global') throw new ForbiddenError('Built-in agents cannot be edited.');
    const editors = (await this.agents.editorsOf(caller.workspaceId, [agent.sId])).get(agent.sId) ?? [];
    if (!isEditableBy(agent, { isAdmin: caller.isAdmin, isEditor: editors.includes(caller.userId) })) {
      throw new ForbiddenError('Only the editors of this agent and workspace admins can change it.');
    }
  }

  /** On creation every tool must resolve: there is no `skippedActions` in the answer to report to. */
  private async resolveActionsStrictly(caller: Caller, entries: ToolsetEntry[]): Promise<ResolvedAction[]> {
    if (entries.length === 0) return [];
    const { actions, skipped } = resolveToolset(
      entries,
      await this.catalogueService.remoteServersWithViews(caller),
      await this.accessibleSpaceIds(caller),
    );
    if (skipped.length > 0) {
      throw new InvalidRequestError(
        `assistant.actions: ${skipped.map((skip) => `${skip.name}: ${skip.reason}`).join(' ')}`,
      );
    }
    return actions;
  }

  private async resolveTags(caller: Caller, references: TagReference[]): Promise<Tag[]> {
    const unique = [...new Map(references.map((tag) => [tag.name.trim().toLowerCase(), tag])).values()];
    if (unique.length === 0) return [];
    const existing = await this.catalogue.findTagsByNames(
      caller.workspaceId,
      unique.map((tag) => tag.name.trim()),
    );
    const known = new Set(existing.map((tag) => tag.name.toLowerCase()));
    const missing = unique.filter((tag) => !known.has(tag.name.trim().toLowerCase()));
    const protectedTags = [
      ...existing.filter((tag) => tag.kind === 'protected').map((tag) => tag.name),
      ...missing.filter((tag) => tag.kind === 'protected').map((tag) => tag.name),
    ];
    if (protectedTags.length > 0 && !caller.isAdmin) {
      throw new ForbiddenError(`Only admins can use protected tags: ${protectedTags.join(', ')}.`);
    }
    return this.catalogue.ensureTags(caller.workspaceId, [
      ...existing.map((tag) => ({ sId: tag.sId, name: tag.name, kind: tag.kind })),
      ...missing.map((tag) => ({
        sId: generatePrefixedSId('tag'),
        name: tag.name.trim(),
        kind: tag.kind ?? 'standard',
      })),
    ]);
  }

  private async resolveSkills(
    caller: Caller,
    references: { sId: string }[],
    field: string,
  ): Promise<number[]> {
    const sIds = [...new Set(references.map((skill) => skill.sId))];
    const skills = await this.catalogue.findSkillsBySIds(caller.workspaceId, sIds);
    const unknown = sIds.filter((sId) => !skills.some((skill) => skill.sId === sId));
    if (unknown.length > 0)
      throw new InvalidRequestError(`${field}: unknown skill(s) ${unknown.join(', ')}.`);
    return skills.map((skill) => skill.id);
  }

  /** Editors by user sId or email; unknown ones are an error; the caller always stays an editor. */
  private async resolveEditors(
    caller: Caller,
    references: EditorReference[],
    field: string,
  ): Promise<number[]> {
    const { members, unknown } = await this.workspaces.resolveMembers(caller, {
      userSIds: references.flatMap((ref) => (ref.userId ? [ref.userId] : [])),
      emails: references.flatMap((ref) => (!ref.userId && ref.email ? [ref.email] : [])),
    });
    if (unknown.length > 0) {
      throw new InvalidRequestError(`${field}: not members of this workspace: ${unknown.join(', ')}.`);
    }
    return [...new Set([caller.userId, ...members.map((member) => member.user.id)])].sort((a, b) => a - b);
  }

  private async accessibleSpaceIds(caller: Caller): Promise<Set<string>> {
    return new Set((await this.spaces.listAccessible(caller)).map((space) => space.sId));
  }

  /** Everything the presenters need for a page of agents, in a fixed number of queries. */
  private async details(
    caller: Caller,
    agents: AgentVersion[],
    options: { withAuthors: boolean; withEditors: boolean; withUsage?: boolean; withFeedbacks?: boolean },
    knownFavorites?: Set<string>,
  ): Promise<AgentDetails[]> {
    if (agents.length === 0) return [];
    const sIds = agents.map((agent) => agent.sId);
    const since = new Date(Date.now() - USAGE_PERIOD_SEC * 1000);
    // Agents are described inside transactions too (a message's mentions), where reads go one by one.
    const [tags, favorites, editors, accessible, authors, usage, feedbacks] = await this.unitOfWork.all([
      () =>
        this.catalogue.findTagsByIds(caller.workspaceId, [
          ...new Set(agents.flatMap((agent) => agent.tagIds)),
        ]),
      async () => knownFavorites ?? this.agents.favoritesOf(caller.workspaceId, caller.userId),
      () => this.agents.editorsOf(caller.workspaceId, sIds),
      () => this.accessibleSpaceIds(caller),
      async () =>
        options.withAuthors ? this.agents.recentAuthors(caller.workspaceId, sIds, LAST_AUTHORS) : null,
      async () => (options.withUsage ? this.statistics.usage(caller, sIds, since) : null),
      async () => (options.withFeedbacks ? this.statistics.feedbackCounts(caller, sIds, since) : null),
    ]);
    const userIds = [
      ...agents.flatMap((agent) => (agent.versionAuthorId === null ? [] : [agent.versionAuthorId])),
      ...(options.withEditors ? [...editors.values()].flat() : []),
      ...(authors ? [...authors.values()].flat() : []),
    ];
    const members = new Map(
      (await this.workspaces.membersByUserIds(caller.workspaceId, userIds)).map((member) => [
        member.user.id,
        member.user,
      ]),
    );
    return agents.map((agent) => {
      const agentEditors = editors.get(agent.sId) ?? [];
      const isEditor = agentEditors.includes(caller.userId);
      const details: AgentDetails = {
        agent,
        tags: tags.filter((tag) => agent.tagIds.includes(tag.id)),
        versionAuthorSId:
          agent.versionAuthorId === null ? null : (members.get(agent.versionAuthorId)?.sId ?? null),
        userFavorite: favorites.has(agent.sId),
        canRead: isReadableBy(agent, { isAdmin: caller.isAdmin, isEditor, accessibleSpaceIds: accessible }),
        canEdit: isEditableBy(agent, { isAdmin: caller.isAdmin, isEditor }),
        requestedSpaceIds: requestedSpaceIds(agent.actions),
      };
      if (options.withEditors) {
        details.editors = agentEditors.flatMap((userId) => {
          const user = members.get(userId);
          return user
            ? [{ sId: user.sId, fullName: user.fullName, image: user.image ?? defaultPictureUrl(user.sId) }]
            : [];
        });
      }
      if (usage) {
        const counts = usage.get(agent.sId) ?? { messageCount: 0, conversationCount: 0, userCount: 0 };
        details.usage = { ...counts, timePeriodSec: USAGE_PERIOD_SEC };
      }
      if (feedbacks) details.feedbacks = feedbacks.get(agent.sId) ?? { up: 0, down: 0 };
      if (authors) {
        details.lastAuthors = (authors.get(agent.sId) ?? []).flatMap((userId) => {
          const user = members.get(userId);
          return user ? [user.fullName] : [];
        });
      }
      return details;
    });
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
