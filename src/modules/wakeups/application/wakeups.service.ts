import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import { InProcessEvents, OnEventInTransaction } from 'src/platform/events/in-process-events';
import { DomainError, ForbiddenError } from 'src/platform/errors/domain-error';
import { generatePrefixedSId } from 'src/platform/ids/sid';
import { ConversationDeleted, ConversationsService } from 'src/modules/conversations/conversations.api';
import type { ConversationEvent, WakeUpUpdatedEvent } from 'src/modules/conversations/conversations.api';
import { MemberRemoved, WorkspacesService } from 'src/modules/identity/identity.api';
import { WakeUpScheduled } from 'src/modules/wakeups/application/wakeups.events';
import { AgentsService } from 'src/modules/agents/agents.api';
import { WakeUpRepository } from 'src/modules/wakeups/application/ports/wakeup.repository';
import { renderWakeUp } from 'src/modules/wakeups/application/views/wake-up.view';
import { ScheduleInput, WakeUp, isTerminal, planSchedule } from 'src/modules/wakeups/domain/wakeup';
import { WakeUpNotFound } from 'src/modules/wakeups/domain/wakeups.errors';

export interface NewWakeUpInput {
  agentConfigurationId: string;
  scheduleConfig: ScheduleInput;
  reason: string;
  maxFires?: number;
}

/** What a wake-up's announcement needs of its conversation. */
export interface ConversationRef {
  id: number;
  sId: string;
  workspaceId: number;
}

/** A wake-up with what its wire form names by sId. */
export interface WakeUpDetails {
  wakeUp: WakeUp;
  conversationSId: string;
  ownerSId: string;
}

@Injectable()
export class WakeUpsService {
  constructor(
    private readonly wakeUps: WakeUpRepository,
    private readonly conversations: ConversationsService,
    private readonly agents: AgentsService,
    private readonly workspaces: WorkspacesService,
    private readonly events: ConversationEventLog<ConversationEvent>,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly inProcessEvents: InProcessEvents,
  ) {}

  async create(caller: Caller, conversationSId: string, input: NewWakeUpInput): Promise<WakeUpDetails> {
    const conversation = await this.conversations.get(caller, conversationSId);
    const plan = planSchedule(input.scheduleConfig, input.maxFires, this.clock.now());
    // The agent must exist and be usable by the owner (the same check as a mention).
    await this.agents.resolveMentions(caller, [input.agentConfigurationId], 'agentConfigurationId');
    const wakeUp = await this.unitOfWork.run(async () => {
      const created = await this.wakeUps.create({
        sId: generatePrefixedSId('wku'),
        workspaceId: caller.workspaceId,
        conversationId: conversation.id,
        ownerId: caller.userId,
        agentSId: input.agentConfigurationId,
        schedule: plan.schedule,
        reason: input.reason,
        status: 'scheduled',
        fireCount: 0,
        maxFires: plan.maxFires,
        nextFireAt: plan.firstFireAt,
        attempts: 0,
      });
      if (!created) {
        throw new DomainError(
          'refused_in_current_state',
          'This conversation already has a scheduled wake-up.',
        );
      }
      await this.announce(conversation, created, caller.userSId);
      this.inProcessEvents.emitAfterCommit(WakeUpScheduled, { dueAt: plan.firstFireAt });
      return created;
    });
    return { wakeUp, conversationSId: conversation.sId, ownerSId: caller.userSId };
  }

  async list(caller: Caller, conversationSId: string): Promise<WakeUpDetails[]> {
    const conversation = await this.conversations.get(caller, conversationSId);
    const wakeUps = await this.wakeUps.listInConversation(caller.workspaceId, conversation.id);
    const owners = new Map(
      (await this.workspaces.usersByIds(wakeUps.map((wakeUp) => wakeUp.ownerId))).map((user) => [
        user.id,
        user.sId,
      ]),
    );
    return wakeUps.map((wakeUp) => ({
      wakeUp,
      conversationSId: conversation.sId,
      ownerSId: owners.get(wakeUp.ownerId) ?? '',
    }));
  }

  /** Owner or admin; a terminal wake-up comes back unchanged. A cancel racing a firing waits for it. */
  async cancel(caller: Caller, conversationSId: string, wakeUpSId: string): Promise<WakeUpDetails> {
    const conversation = await this.conversations.get(caller, conversationSId);
    const found = await this.wakeUps.find(caller.workspaceId, conversation.id, wakeUpSId);
    if (!found) throw new WakeUpNotFound(wakeUpSId);
    if (!caller.isAdmin && found.ownerId !== caller.userId) {
      throw new ForbiddenError('Only the owner of a wake-up or a workspace admin can cancel it.');
    }
    const [owner] = await this.workspaces.usersByIds([found.ownerId]);
    const details = (wakeUp: WakeUp) => ({
      wakeUp,
      conversationSId: conversation.sId,
      ownerSId: owner?.sId ?? '',
    });
    if (isTerminal(found.status)) return details(found);
    const wakeUp = await this.unitOfWork.run(async () => {
      const { wakeUp: after, changed } = await this.wakeUps.cancel(caller.workspaceId, found.id);
      if (changed) await this.announce(conversation, after, owner?.sId ?? '');
      return after;
    });
    return details(wakeUp);
  }

  /** A member who leaves takes their scheduled wake-ups along, each cancellation announced. */
  @OnEventInTransaction(MemberRemoved)
  async cancelOwnedBy({ workspaceId, user }: MemberRemoved): Promise<void> {
    for (const { wakeUp, conversationSId } of await this.wakeUps.cancelScheduledOf(workspaceId, user.id)) {
      await this.announce({ id: wakeUp.conversationId, sId: conversationSId, workspaceId }, wakeUp, user.sId);
    }
  }

  /** A deleted conversation's wake-up never fires; nobody can read its log, so nothing is announced. */
  @OnEventInTransaction(ConversationDeleted)
  async cancelInDeleted({ workspaceId, conversationId }: ConversationDeleted): Promise<void> {
    await this.wakeUps.cancelScheduledIn(workspaceId, conversationId);
  }

  /** `wake_up_updated` in the conversation's log, in the current transaction. */
  async announce(conversation: ConversationRef, wakeUp: WakeUp, ownerSId: string): Promise<void> {
    await this.events.append(conversation.workspaceId, conversation.id, {
      type: 'wake_up_updated',
      created: this.clock.now().getTime(),
      conversationId: conversation.sId,
      wakeUp: renderWakeUp({ wakeUp, conversationSId: conversation.sId, ownerSId }),
    } satisfies WakeUpUpdatedEvent);
  }
}
