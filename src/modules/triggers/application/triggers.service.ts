import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  InvalidRequestError,
} from 'src/platform/errors/domain-error';
import { InProcessEvents, OnEventInTransaction } from 'src/platform/events/in-process-events';
import { AgentArchived, AgentDetails, AgentsService } from 'src/modules/agents/agents.api';
import { ConversationsService } from 'src/modules/conversations/conversations.api';
import { generatePrefixedSId } from 'src/platform/ids/sid';
import { WorkspacesService } from 'src/modules/identity/identity.api';
import { TriggerChanges, TriggerRepository } from 'src/modules/triggers/application/ports/trigger.repository';
import { TriggerScheduled } from 'src/modules/triggers/application/triggers.events';
import {
  TriggerConversationView,
  TriggerView,
  renderTrigger,
} from 'src/modules/triggers/application/views/trigger.view';
import { Trigger, TriggerOrigin, TriggerSpec } from 'src/modules/triggers/domain/trigger';
import {
  TriggerInput,
  scheduleFrom,
  triggerName,
  webhookFrom,
} from 'src/modules/triggers/domain/trigger-input';
import { WebhookSourcesService } from 'src/modules/triggers/application/webhook-sources.service';
import { TriggerNotFound } from 'src/modules/triggers/domain/triggers.errors';
import { TriggersConfig } from 'src/modules/triggers/triggers.config';

/** Conversations `conversationsOf` lists at most. */
export const TRIGGER_CONVERSATIONS_MAX = 100;

/** A checked trigger input: what it becomes, before anything is written. */
interface Planned {
  input: TriggerInput;
  spec: TriggerSpec;
  nextFireAt: Date | null;
}

/**
 * Triggers of an agent, on Dust's batch routes: readers of the agent list them; its editors and
 * workspace admins create, change and delete them. A batch is checked whole before anything is
 * written, and written in one transaction: all of it or nothing.
 */
@Injectable()
export class TriggersService {
  constructor(
    private readonly triggers: TriggerRepository,
    private readonly agents: AgentsService,
    private readonly workspaces: WorkspacesService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: TriggersConfig,
    private readonly events: InProcessEvents,
    private readonly conversations: ConversationsService,
    private readonly webhookSources: WebhookSourcesService,
  ) {}

  async list(caller: Caller, agentSId: string): Promise<TriggerView[]> {
    await this.readableAgent(caller, agentSId);
    return this.present(caller, await this.triggers.listForAgent(caller.workspaceId, agentSId));
  }

  /** One trigger of an agent the caller can read. */
  async get(caller: Caller, agentSId: string, sId: string): Promise<Trigger> {
    await this.readableAgent(caller, agentSId);
    const trigger = await this.triggers.find(caller.workspaceId, sId);
    if (!trigger || trigger.agentSId !== agentSId) throw new TriggerNotFound(sId);
    return trigger;
  }

  async create(
    caller: Caller,
    agentSId: string,
    inputs: TriggerInput[],
    origin: TriggerOrigin = 'user',
  ): Promise<TriggerView[]> {
    await this.editableAgent(caller, agentSId);
    const planned = await this.planAll(caller, inputs);
    const created = await this.unitOfWork.run(async () => {
      await this.triggers.lockAgent(caller.workspaceId, agentSId);
      await this.assertRoomOnAgent(caller.workspaceId, agentSId, inputs.length);
      const rows = await this.triggers.createMany(
        planned.map(({ input, spec, nextFireAt }) => ({
          sId: generatePrefixedSId('trg'),
          workspaceId: caller.workspaceId,
          agentSId,
          name: input.name,
          editorId: caller.userId,
          customPrompt: input.customPrompt,
          status: input.status ?? 'enabled',
          origin,
          sourceConversationId: null,
          spec,
          nextFireAt: (input.status ?? 'enabled') === 'enabled' ? nextFireAt : null,
        })),
      );
      this.announceSchedules(rows);
      return rows;
    });
    return this.present(caller, created);
  }

  /** Replaces each named trigger's settings; the caller becomes its editor, as in Dust. */
  async update(
    caller: Caller,
    agentSId: string,
    patches: (TriggerInput & { sId: string })[],
  ): Promise<TriggerView[]> {
    await this.editableAgent(caller, agentSId);
    const planned = (await this.planAll(caller, patches)).map((plan, i) => ({
      sId: patches[i].sId,
      ...plan,
    }));
    const updated = await this.unitOfWork.run(async () => {
      await this.triggers.lockAgent(caller.workspaceId, agentSId);
      const current = await this.ownTriggers(
        caller,
        agentSId,
        planned.map((patch) => patch.sId),
      );
      const rows: Trigger[] = [];
      for (const [i, { input, spec, nextFireAt }] of planned.entries()) {
        const status = input.status ?? current[i].status;
        const changes: TriggerChanges = {
          name: input.name,
          customPrompt: input.customPrompt,
          status,
          spec,
          nextFireAt: status === 'enabled' ? nextFireAt : null,
          editorId: caller.userId,
        };
        rows.push(await this.triggers.update(current[i], changes));
      }
      this.announceSchedules(rows);
      return rows;
    });
    return this.present(caller, updated);
  }

  async remove(caller: Caller, agentSId: string, sIds: string[]): Promise<void> {
    await this.editableAgent(caller, agentSId);
    await this.unitOfWork.run(async () => {
      await this.triggers.lockAgent(caller.workspaceId, agentSId);
      const found = await this.ownTriggers(caller, agentSId, sIds);
      await this.triggers.deleteMany(
        caller.workspaceId,
        found.map((trigger) => trigger.id),
      );
    });
  }

  /**
   * The conversations the trigger opened that the caller can read, newest first: those of its
   * last `TRIGGER_CONVERSATIONS_MAX` firings.
   */
  async conversationsOf(caller: Caller, agentSId: string, sId: string): Promise<TriggerConversationView[]> {
    const trigger = await this.get(caller, agentSId, sId);
    const firings = await this.triggers.listFirings(
      caller.workspaceId,
      trigger.id,
      TRIGGER_CONVERSATIONS_MAX,
    );
    const listed: TriggerConversationView[] = [];
    for (const firing of firings) {
      if (firing.conversationId === null) continue;
      const conversation = await this.conversations
        .getById(caller, firing.conversationId)
        .catch((error: unknown) => {
          if (error instanceof DomainError) return null;
          throw error;
        });
      if (!conversation) continue;
      listed.push({
        sId: conversation.sId,
        title: conversation.title,
        created: conversation.createdAt.getTime(),
        triggerId: trigger.sId,
        firedFor: firing.dueAt.getTime(),
      });
    }
    return listed;
  }

  /** An archived agent's triggers never fire again. */
  @OnEventInTransaction(AgentArchived)
  async disableOfArchived({ workspaceId, agentSId }: AgentArchived): Promise<void> {
    await this.triggers.disableForAgent(workspaceId, agentSId);
  }

  /** Triggers as the API shows them to `caller`. */
  async present(caller: Caller, triggers: Trigger[]): Promise<TriggerView[]> {
    const editors = new Map(
      (await this.workspaces.usersByIds(triggers.map((trigger) => trigger.editorId))).map((user) => [
        user.id,
        user,
      ]),
    );
    const viewSIds = await this.webhookSources.viewSIds(
      caller.workspaceId,
      triggers.flatMap(({ spec }) => (spec.kind === 'webhook' ? [spec.webhookSourceViewId] : [])),
    );
    return triggers.map((trigger) => ({
      ...renderTrigger(trigger, editors.get(trigger.editorId), caller.userId),
      webhookSourceViewSId:
        trigger.spec.kind === 'webhook' ? (viewSIds.get(trigger.spec.webhookSourceViewId) ?? null) : null,
    }));
  }

  /** Each input checked in turn, so the first bad one is the one named. */
  private async planAll(caller: Caller, inputs: TriggerInput[]): Promise<Planned[]> {
    const planned: Planned[] = [];
    for (const [i, input] of inputs.entries()) planned.push(await this.plan(caller, input, `triggers[${i}]`));
    return planned;
  }

  private async plan(caller: Caller, given: TriggerInput, field: string): Promise<Planned> {
    const input = { ...given, name: triggerName(given.name, `${field}.name`) };
    if (input.kind === 'schedule') {
      if (input.webhookSourceViewSId != null || input.executionPerDayLimitOverride != null) {
        throw new InvalidRequestError(
          `${field}: webhookSourceViewSId and executionPerDayLimitOverride belong to webhook triggers only.`,
        );
      }
      const { configuration, nextFireAt } = scheduleFrom(
        input.configuration,
        this.clock.now(),
        `${field}.configuration`,
      );
      return { input, spec: { kind: 'schedule', configuration }, nextFireAt };
    }
    const configuration = webhookFrom(input.configuration, `${field}.configuration`);
    const view = await this.webhookSources.readableView(
      caller,
      input.webhookSourceViewSId,
      `${field}.webhookSourceViewSId`,
    );
    return {
      input,
      spec: {
        kind: 'webhook',
        configuration,
        webhookSourceViewId: view.id,
        executionPerDayLimitOverride: input.executionPerDayLimitOverride ?? null,
      },
      nextFireAt: null,
    };
  }

  /**
   * Under the agent's lock (`TriggerRepository.lockAgent`): refuses when `adding` more triggers would
   * pass the per-agent limit of the routes. Schedules the agent's tools created are not counted:
   * members' conversations cannot take its editors' places.
   */
  private async assertRoomOnAgent(workspaceId: number, agentSId: string, adding: number): Promise<void> {
    const existing = (await this.triggers.listForAgent(workspaceId, agentSId)).filter(
      (trigger) => trigger.origin === 'user',
    ).length;
    const max = this.config.maxPerAgent;
    if (existing + adding > max) {
      throw new InvalidRequestError(
        `triggers: an agent has at most ${max} triggers set up on these routes (schedules its tools create are counted apart); this one has ${existing}, so at most ${Math.max(0, max - existing)} more can be created (delete some first).`,
      );
    }
  }

  announceSchedules(rows: Trigger[]): void {
    const due = rows.flatMap((row) => (row.nextFireAt ? [row.nextFireAt.getTime()] : []));
    if (due.length > 0) this.events.emitAfterCommit(TriggerScheduled, { dueAt: new Date(Math.min(...due)) });
  }

  /** The named triggers of this agent, in the order named; a missing one fails the whole batch. */
  async ownTriggers(caller: Caller, agentSId: string, sIds: string[]): Promise<Trigger[]> {
    const all = new Map(
      (await this.triggers.listForAgent(caller.workspaceId, agentSId)).map((trigger) => [
        trigger.sId,
        trigger,
      ]),
    );
    return sIds.map((sId) => {
      const found = all.get(sId);
      if (!found) throw new TriggerNotFound(sId);
      return found;
    });
  }

  async readableAgent(caller: Caller, agentSId: string): Promise<AgentDetails> {
    const [details] = await this.agents.describe(caller, [agentSId]);
    if (!details || !details.canRead) {
      throw new DomainError('agent_configuration_not_found', `Agent configuration ${agentSId} not found.`);
    }
    return details;
  }

  private async editableAgent(caller: Caller, agentSId: string): Promise<AgentDetails> {
    const details = await this.readableAgent(caller, agentSId);
    if (!details.canEdit) {
      throw new ForbiddenError("Only the agent's editors and workspace admins can change its triggers.");
    }
    this.assertNotArchived(details);
    return details;
  }

  assertNotArchived(details: AgentDetails): void {
    if (details.agent.status === 'archived') {
      throw new ConflictError(
        `Agent configuration ${details.agent.sId} is archived: its triggers can no longer change.`,
      );
    }
  }
}
