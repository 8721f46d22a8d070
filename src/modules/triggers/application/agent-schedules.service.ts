import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { ForbiddenError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { generatePrefixedSId } from 'src/platform/ids/sid';
import { ConversationsService } from 'src/modules/conversations/conversations.api';
import { TriggerRepository } from 'src/modules/triggers/application/ports/trigger.repository';
import { TriggersService } from 'src/modules/triggers/application/triggers.service';
import type { TriggerView } from 'src/modules/triggers/application/views/trigger.view';
import { AgentScheduleInput, scheduleFrom, triggerName } from 'src/modules/triggers/domain/trigger-input';
import { TriggersConfig } from 'src/modules/triggers/triggers.config';

/**
 * The schedules an agent sets up of itself through its `triggers` tools, under the configuration
 * checks of the triggers routes and limits of their own (per conversation, member and agent).
 */
@Injectable()
export class AgentSchedulesService {
  constructor(
    private readonly triggers: TriggerRepository,
    private readonly triggerRules: TriggersService,
    private readonly conversations: ConversationsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: TriggersConfig,
  ) {}

  /** The agent's triggers, as the routes list them to a reader. */
  list(caller: Caller, agentSId: string): Promise<TriggerView[]> {
    return this.triggerRules.list(caller, agentSId);
  }

  /**
   * A schedule the agent creates of itself from a run: origin `agent`, the run's caller as editor
   * (its conversations are theirs, and fire only while they can read the agent). The caller needs
   * only to read the agent, as in Dust; the limits of `assertRoomFor` bound what runs can add.
   */
  async createByAgent(
    caller: Caller,
    place: { agentSId: string; conversationSId: string },
    input: AgentScheduleInput,
  ): Promise<TriggerView> {
    const details = await this.triggerRules.readableAgent(caller, place.agentSId);
    this.triggerRules.assertNotArchived(details);
    const conversation = await this.conversations.get(caller, place.conversationSId);
    const name = triggerName(input.name, 'name');
    const { configuration, nextFireAt } = scheduleFrom(
      { type: 'cron', cron: input.cron, timezone: input.timezone },
      this.clock.now(),
      'configuration',
    );
    const [created] = await this.unitOfWork.run(async () => {
      await this.triggers.lockAgent(caller.workspaceId, place.agentSId);
      await this.assertRoomFor(caller, place.agentSId, conversation.id);
      const rows = await this.triggers.createMany([
        {
          sId: generatePrefixedSId('trg'),
          workspaceId: caller.workspaceId,
          agentSId: place.agentSId,
          name,
          editorId: caller.userId,
          customPrompt: input.customPrompt,
          status: 'enabled',
          origin: 'agent',
          sourceConversationId: conversation.id,
          spec: { kind: 'schedule', configuration },
          nextFireAt,
        },
      ]);
      this.triggerRules.announceSchedules(rows);
      return rows;
    });
    return (await this.triggerRules.present(caller, [created]))[0];
  }

  /**
   * Under the agent's lock, so that parallel runs cannot pass them: the limits of what tools create,
   * per conversation, per member (their schedules of this agent, from all their conversations) and
   * per agent; disabled schedules count, so a looping run cannot create, disable and create again.
   * The routes' per-agent limit leaves these out, and these leave the routes' triggers out.
   */
  private async assertRoomFor(caller: Caller, agentSId: string, conversationId: number): Promise<void> {
    // Under this agent's lock only: two agents of one conversation at once may pass it by one.
    const fromHere = await this.triggers.countFromConversation(caller.workspaceId, conversationId);
    const perConversation = this.config.maxPerConversation;
    if (fromHere >= perConversation) {
      throw new InvalidRequestError(
        `schedule: agents may create at most ${perConversation} schedules from one conversation, and ${fromHere} were created from this one; disabling does not free a place (a member can delete them on the agent's triggers).`,
      );
    }
    const fromTools = (await this.triggers.listForAgent(caller.workspaceId, agentSId)).filter(
      (trigger) => trigger.origin === 'agent',
    );
    const forCaller = fromTools.filter((trigger) => trigger.editorId === caller.userId).length;
    const perMember = this.config.maxFromToolsPerMember;
    if (forCaller >= perMember) {
      throw new InvalidRequestError(
        `schedule: agents may create at most ${perMember} schedules of this agent for one member, and ${forCaller} were created for you; disabling does not free a place (the agent's editors can delete them).`,
      );
    }
    const perAgent = this.config.maxFromToolsPerAgent;
    if (fromTools.length >= perAgent) {
      throw new InvalidRequestError(
        `schedule: an agent has at most ${perAgent} schedules created by agents' tools, and this one has ${fromTools.length}; its editors can delete some on the agent's triggers.`,
      );
    }
  }

  /**
   * Disables a trigger of this agent for an agent's tool: one the caller set up (as its editor), or
   * any of the agent's when the caller may edit the agent. Disabling a disabled trigger changes nothing.
   */
  async disableByAgent(caller: Caller, agentSId: string, sId: string): Promise<TriggerView> {
    const details = await this.triggerRules.readableAgent(caller, agentSId);
    const disabled = await this.unitOfWork.run(async () => {
      await this.triggers.lockAgent(caller.workspaceId, agentSId);
      const [trigger] = await this.triggerRules.ownTriggers(caller, agentSId, [sId]);
      if (trigger.editorId !== caller.userId && !details.canEdit) {
        throw new ForbiddenError(
          `Trigger ${sId} was set up by another member: only they, the agent's editors and workspace admins can disable it.`,
        );
      }
      if (trigger.status === 'disabled') return trigger;
      return this.triggers.update(trigger, { status: 'disabled', nextFireAt: null });
    });
    return (await this.triggerRules.present(caller, [disabled]))[0];
  }
}
