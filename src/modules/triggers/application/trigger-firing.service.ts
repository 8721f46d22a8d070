import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { DomainError } from 'src/platform/errors/domain-error';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { AgentsService } from 'src/modules/agents/application/agents.service';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import type { FragmentInput } from 'src/modules/conversations/application/content-fragments.service';
import { WorkspacesService } from 'src/modules/identity/application/workspaces.service';
import { TriggerRepository } from 'src/modules/triggers/application/ports/trigger.repository';
import { Trigger } from 'src/modules/triggers/domain/trigger';
import { nextFiring } from 'src/modules/triggers/domain/trigger-schedule';

/** Why a firing could not open its conversation, and whether the trigger can ever fire again. */
export interface Refusal {
  error: string;
  disable: boolean;
}

/**
 * Fires due schedules. Each is claimed with FOR UPDATE SKIP LOCKED, and its firing row (unique per
 * trigger and due time), its conversation and its next due time commit in one transaction: a due
 * time fires once however many processes run, and a process that dies mid-firing leaves nothing
 * behind for the next claim to trip over. A firing the editor's rights refuse is recorded as
 * failed and the schedule moves on.
 */
@Injectable()
export class TriggerFiringService {
  constructor(
    private readonly triggers: TriggerRepository,
    private readonly conversations: ConversationsService,
    private readonly agents: AgentsService,
    private readonly workspaces: WorkspacesService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly log: OperatorLog,
  ) {}

  nextDueAt(): Promise<Date | null> {
    return this.triggers.nextDueAt();
  }

  /** Claims and fires one due schedule; false when none is due (or every due one is being fired). */
  async fireNextDue(): Promise<boolean> {
    let claimed: Trigger | null = null;
    try {
      await this.unitOfWork.run(async () => {
        [claimed = null] = await this.triggers.claimDue(this.clock.now(), 1);
        if (claimed) await this.fireSchedule(claimed);
      });
    } catch (error) {
      if (!claimed) throw error;
      await this.recordFailure(claimed, error);
    }
    return claimed !== null;
  }

  /**
   * Opens the trigger's conversation for one occurrence, in the current transaction: the firing row
   * first (a second firing of the same occurrence stops there), then the conversation. Returns the
   * conversation's id, or null when the occurrence had already fired or was refused (recorded).
   */
  async fire(trigger: Trigger, occurrence: Date): Promise<number | null> {
    const firingId = await this.triggers.recordFiring({
      workspaceId: trigger.workspaceId,
      triggerId: trigger.id,
      dueAt: occurrence,
      status: 'failed',
      conversationId: null,
      error: null,
    });
    if (firingId === null) return null;
    const outcome = await this.open(trigger);
    if ('error' in outcome) {
      await this.triggers.completeFiring(trigger.workspaceId, firingId, {
        status: 'failed',
        conversationId: null,
        error: outcome.error,
      });
      if (outcome.disable) await this.triggers.update(trigger, { status: 'disabled', nextFireAt: null });
      return null;
    }
    await this.triggers.completeFiring(trigger.workspaceId, firingId, {
      status: 'succeeded',
      conversationId: outcome.conversationId,
      error: null,
    });
    return outcome.conversationId;
  }

  private async fireSchedule(trigger: Trigger): Promise<void> {
    const due = trigger.nextFireAt ?? this.clock.now();
    await this.fire(trigger, due);
    await this.advance(trigger, due);
  }

  /** Moves a schedule to its next due time, unless its firing disabled it. */
  private async advance(trigger: Trigger, due: Date): Promise<void> {
    const current = await this.triggers.find(trigger.workspaceId, trigger.sId);
    if (!current || current.status !== 'enabled' || current.spec.kind !== 'schedule') return;
    const next = nextFiring(current.spec.configuration, due, this.clock.now());
    await this.triggers.update(
      current,
      next ? { nextFireAt: next } : { status: 'disabled', nextFireAt: null },
    );
  }

  /**
   * Opens the trigger's conversation now, as its editor, in the current transaction (webhook
   * deliveries add the payload as `contentFragments`); a refusal says why.
   */
  async open(
    trigger: Trigger,
    contentFragments: FragmentInput[] = [],
  ): Promise<{ conversationId: number } | Refusal> {
    const [editor] = await this.workspaces.callersFor([
      { workspaceId: trigger.workspaceId, userId: trigger.editorId, keyId: trigger.sId },
    ]);
    if (!editor)
      return { error: "The trigger's editor is no longer a member of the workspace.", disable: true };
    const [details] = await this.agents.describe(editor, [trigger.agentSId]);
    if (!details) return { error: `Agent ${trigger.agentSId} no longer exists.`, disable: true };
    if (details.agent.status === 'archived')
      return { error: `Agent ${trigger.agentSId} is archived.`, disable: true };
    if (!details.canRead) {
      return { error: `The trigger's editor can no longer read agent ${trigger.agentSId}.`, disable: false };
    }
    try {
      const { conversation } = await this.conversations.create(editor, {
        title: trigger.name,
        triggerId: trigger.sId,
        contentFragments,
        message: {
          content: trigger.customPrompt ?? trigger.name,
          mentions: [{ configurationId: trigger.agentSId }],
          context: await this.contextOf(editor, trigger),
        },
      });
      return { conversationId: conversation.id };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { error: error.message, disable: false };
    }
  }

  private async contextOf(editor: Caller, trigger: Trigger) {
    const [user] = await this.workspaces.usersByIds([editor.userId]);
    const timezone = trigger.spec.kind === 'schedule' ? trigger.spec.configuration.timezone : 'UTC';
    return {
      username: user?.username ?? editor.userSId,
      timezone,
      origin: 'triggered' as const,
      fullName: user?.fullName ?? null,
      email: user?.email ?? null,
      profilePictureUrl: user?.image ?? null,
    };
  }

  /** In its own transaction: the firing's rolled back. The occurrence is recorded as failed and skipped. */
  private async recordFailure(trigger: Trigger, error: unknown): Promise<void> {
    this.log.warn(TriggerFiringService.name, { err: error, trigger: trigger.sId }, 'Trigger firing failed');
    await this.unitOfWork
      .run(async () => {
        const current = await this.triggers.claimIfDue(trigger.workspaceId, trigger.id, this.clock.now());
        if (!current?.nextFireAt) return;
        await this.triggers.recordFiring({
          workspaceId: current.workspaceId,
          triggerId: current.id,
          dueAt: current.nextFireAt,
          status: 'failed',
          conversationId: null,
          error: error instanceof Error ? error.message : String(error),
        });
        await this.advance(current, current.nextFireAt);
      })
      .catch((failure: unknown) =>
        this.log.error(
          TriggerFiringService.name,
          { err: failure },
          'Could not record a failed trigger firing',
        ),
      );
  }
}
