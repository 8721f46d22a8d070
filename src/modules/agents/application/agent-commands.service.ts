import { Injectable } from '@nestjs/common';
import { InProcessEvents } from 'src/platform/events/in-process-events';
import { AgentArchived } from 'src/modules/agents/application/agents.events';
import { Caller } from 'src/platform/auth/caller';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { ConflictError, ForbiddenError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { generateSId } from 'src/platform/ids/sid';
import { AgentDetails, AgentDetailsLoader } from 'src/modules/agents/application/agent-details.loader';
import {
  AgentReferencesService,
  EditorReference,
  TagReference,
} from 'src/modules/agents/application/agent-references.service';
import { AgentRepository } from 'src/modules/agents/application/ports/agent.repository';
import {
  AgentStatus,
  AgentVersion,
  AgentVersionDraft,
  DEFAULT_MAX_STEPS_PER_RUN,
  ResolvedAction,
  defaultPictureUrl,
  isEditableBy,
  isReadableBy,
} from 'src/modules/agents/domain/agent-configuration';
import { AgentModel } from 'src/kernel/agent-model';
import { AgentNotFound } from 'src/modules/agents/domain/agents.errors';
import type { SkippedAction, ToolsetEntry } from 'src/modules/agents/domain/toolset-resolution';

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

const NO_EXTRAS = { withAuthors: false, withEditors: false };

/** Creates agents and changes them: a new version per change, favourites and editors beside it. */
@Injectable()
export class AgentCommandsService {
  constructor(
    private readonly agents: AgentRepository,
    private readonly references: AgentReferencesService,
    private readonly details: AgentDetailsLoader,
    private readonly unitOfWork: UnitOfWork,
    private readonly events: InProcessEvents,
  ) {}

  async create(caller: Caller, input: NewAgent): Promise<AgentDetails> {
    if (!caller.isBuilder) throw new ForbiddenError('Only builders and admins can create agents.');
    const agent = await this.unitOfWork.run(async () => {
      if (await this.agents.liveNameTaken(caller.workspaceId, input.name, null)) {
        throw new InvalidRequestError(
          `assistant.name: an active agent named "${input.name}" already exists.`,
        );
      }
      const actions = await this.references.resolveActionsStrictly(caller, input.actions ?? []);
      const tags = await this.references.resolveTags(caller, input.tags ?? []);
      const skillIds = await this.references.resolveSkills(caller, input.skills ?? [], 'assistant.skills');
      const editorIds = await this.references.resolveEditors(
        caller,
        input.editors ?? [],
        'assistant.editors',
      );
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
    return (await this.details.load(caller, [agent], NO_EXTRAS))[0];
  }

  async update(
    caller: Caller,
    sId: string,
    patch: AgentPatch,
  ): Promise<{ details: AgentDetails; skipped: SkippedAction[] }> {
    const current = await this.agents.findLatest(caller.workspaceId, sId);
    // Whatever the patch, even a favourite alone: its answer shows the agent's tools and spaces.
    if (!current || !(await this.isReadable(caller, current))) throw new AgentNotFound(sId);
    // The agent is still there (GET shows it archived), so 409 rather than 404: its state refuses it.
    if (current.status === 'archived') throw archivedConflict(sId);
    const { userFavorite, editors, ...versioned } = patch;
    const changesVersion = Object.values(versioned).some((value) => value !== undefined);
    if (editors !== undefined || changesVersion) await this.requireEditRights(caller, current);

    let skipped: SkippedAction[] = [];
    const agent = await this.unitOfWork.run(async () => {
      if (userFavorite !== undefined) {
        await this.agents.setFavorite(caller.workspaceId, sId, caller.userId, userFavorite);
      }
      if (editors !== undefined) {
        const editorIds = await this.references.resolveEditors(caller, editors, 'editors');
        await this.agents.replaceEditors(caller.workspaceId, sId, editorIds);
      }
      if (!changesVersion) return current;
      await this.agents.lockAgent(caller.workspaceId, sId);
      const latest = await this.agents.findLatest(caller.workspaceId, sId);
      if (!latest) throw new AgentNotFound(sId);
      if (latest.status === 'archived') throw archivedConflict(sId);
      const next = await this.nextVersion(caller, latest, versioned);
      skipped = next.skipped;
      await this.agents.archiveVersion(caller.workspaceId, latest.id);
      const inserted = await this.agents.insertVersion(next.draft);
      if (!inserted) throw new ConflictError('The agent changed during the update; try again.');
      return inserted;
    });
    const [details] = await this.details.load(caller, [agent], NO_EXTRAS);
    return { details, skipped };
  }

  /**
   * Archives an agent (editors and admins): its latest version becomes `archived`, so it leaves
   * every listing but the `archived` view, its name is free again and it can no longer be mentioned.
   * Archiving an archived agent changes nothing.
   */
  async archive(caller: Caller, sId: string): Promise<void> {
    const current = await this.agents.findLatest(caller.workspaceId, sId);
    if (!current || !(await this.isReadable(caller, current))) throw new AgentNotFound(sId);
    await this.requireEditRights(caller, current);
    await this.unitOfWork.run(async () => {
      await this.agents.lockAgent(caller.workspaceId, sId);
      const latest = await this.agents.findLatest(caller.workspaceId, sId);
      if (latest && latest.status !== 'archived') {
        await this.agents.archiveVersion(caller.workspaceId, latest.id);
        await this.events.emitInTransaction(AgentArchived, {
          workspaceId: caller.workspaceId,
          agentSId: sId,
        });
      }
    });
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
      ({ actions, skipped } = await this.references.resolveToolset(caller, patch.toolset));
    }
    const tagIds =
      patch.tags === undefined
        ? latest.tagIds
        : (await this.references.resolveTags(caller, patch.tags)).map((tag) => tag.id);
    const skillIds =
      patch.skills === undefined
        ? latest.skillIds
        : await this.references.resolveSkills(caller, patch.skills, 'skills');
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
      () => this.references.accessibleSpaceIds(caller),
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
}

function archivedConflict(sId: string): ConflictError {
  return new ConflictError(`Agent configuration ${sId} is archived: it can no longer be changed.`);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
