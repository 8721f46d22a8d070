import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { DomainError } from 'src/platform/errors/domain-error';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { AgentDetails, AgentsService } from 'src/modules/agents/agents.api';
import { ConversationsService, SystemMessagesService } from 'src/modules/conversations/conversations.api';
import type { FragmentInput } from 'src/modules/conversations/conversations.api';
import { WorkspacesService } from 'src/modules/identity/identity.api';
import {
  FiringOutcome,
  ScheduleChange,
  TriggerRepository,
} from 'src/modules/triggers/application/ports/trigger.repository';
import { TriggersConfig } from 'src/modules/triggers/triggers.config';
import { Trigger } from 'src/modules/triggers/domain/trigger';
import { nextFiring } from 'src/modules/triggers/domain/trigger-schedule';

/** Why a firing could not open its conversation, and whether the trigger can ever fire again. */
export interface Refusal {
  error: string;
  disable: boolean;
}

type Opened = { conversationId: number } | Refusal;
/** What opening a trigger's conversation takes, once its editor's rights are checked. */
interface Opening {
  editor: Caller;
  trigger: Trigger;
  context: ReturnType<typeof messageContext>;
}

/**
 * Triggers a batch leaves to transactions of their own (the batch failed) are fired this many at
 * a time: each holds a connection.
 */
const ALONE_CONCURRENCY = 4;

/**
 * Fires due schedules. They are claimed in batches with FOR UPDATE SKIP LOCKED, and each firing
 * row (unique per trigger and due time), its conversation and the schedule's next due time commit
 * together: a due time fires once however many processes run, and a process that dies mid-firing
 * leaves nothing behind for the next claim to trip over. Refusals (the editor's rights) are found
 * before anything is written and recorded as failed firings; when a write fails, the batch is
 * undone and its triggers are fired one per transaction, so only the bad one fails.
 */
@Injectable()
export class TriggerFiringService {
  private readonly batchSize: number;

  constructor(
    private readonly triggers: TriggerRepository,
    private readonly conversations: ConversationsService,
    private readonly systemMessages: SystemMessagesService,
    private readonly agents: AgentsService,
    private readonly workspaces: WorkspacesService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly log: OperatorLog,
    config: TriggersConfig,
  ) {
    this.batchSize = config.firingBatchSize;
  }

  nextDueAt(): Promise<Date | null> {
    return this.triggers.nextDueAt();
  }

  /** Claims and fires a batch of due schedules in one transaction; false when none is due (or free). */
  async fireDueBatch(): Promise<boolean> {
    let claimed: Trigger[] = [];
    try {
      await this.unitOfWork.run(async () => {
        claimed = await this.triggers.claimDue(this.clock.now(), this.batchSize);
        if (claimed.length > 0) await this.fireBatch(claimed);
      });
    } catch (error) {
      if (claimed.length === 0) throw error;
      if (claimed.length === 1) {
        await this.recordFailure(claimed[0], error);
        return true;
      }
      this.log.warn(
        TriggerFiringService.name,
        { err: error, triggers: claimed.length },
        'Trigger batch failed; firing its triggers one by one',
      );
      await this.fireEachAlone(claimed);
    }
    return claimed.length > 0;
  }

  /**
   * Opens the trigger's conversation for one occurrence, in the current transaction: the firing row
   * first (a second firing of the same occurrence stops there), then the conversation. Returns the
   * conversation's id, or null when the occurrence had already fired or was refused (recorded).
   */
  async fire(trigger: Trigger, occurrence: Date): Promise<number | null> {
    const firingId = await this.triggers.recordFiring(pendingFiring(trigger, occurrence));
    if (firingId === null) return null;
    const [checked] = await this.check([trigger]);
    const outcome = 'error' in checked ? checked : await this.open(checked);
    if ('error' in outcome) {
      await this.triggers.completeFiring(trigger.workspaceId, firingId, failed(outcome.error));
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

  /**
   * Fires claimed schedules in the current transaction with one statement per step for the batch:
   * their firing rows, the checks, their conversations, the firings' outcomes, their next due times.
   */
  private async fireBatch(claimed: Trigger[]): Promise<void> {
    const now = this.clock.now();
    const due = new Map(claimed.map((trigger) => [trigger.id, trigger.nextFireAt ?? now]));
    const firingIds = await this.triggers.recordFirings(
      claimed.map((trigger) => pendingFiring(trigger, due.get(trigger.id)!)),
    );
    // A due time that already has its firing row only moves on.
    const firing = claimed.flatMap((trigger, i) => {
      const firingId = firingIds[i];
      return firingId === null ? [] : [{ trigger, firingId }];
    });
    const checks = await this.check(firing.map(({ trigger }) => trigger));
    const openings = checks.flatMap((check) => ('error' in check ? [] : [check]));
    const opened = await this.systemMessages.openConversations(openings.map(conversationInput));
    const outcomes = new Map<number, { conversationId: number } | Refusal>();
    for (const [i, { trigger }] of openings.entries()) {
      const outcome = opened[i];
      outcomes.set(
        trigger.id,
        'opened' in outcome
          ? { conversationId: outcome.opened.id }
          : { error: outcome.refused.message, disable: false },
      );
    }
    const disabled = new Set<number>();
    const completed: FiringOutcome[] = firing.map(({ trigger, firingId }, i) => {
      const check = checks[i];
      const outcome = 'error' in check ? check : outcomes.get(trigger.id)!;
      if ('error' in outcome) {
        if (outcome.disable) disabled.add(trigger.id);
        return { workspaceId: trigger.workspaceId, firingId, ...failed(outcome.error) };
      }
      const conversationId = outcome.conversationId;
      return { workspaceId: trigger.workspaceId, firingId, status: 'succeeded', conversationId, error: null };
    });
    await this.triggers.completeFirings(completed);
    await this.triggers.updateSchedules(
      claimed.map((trigger) =>
        disabled.has(trigger.id) ? stop(trigger) : this.advanced(trigger, due.get(trigger.id)!, now),
      ),
    );
  }

  private async fireEachAlone(claimed: Trigger[]): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < claimed.length) await this.fireAlone(claimed[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(ALONE_CONCURRENCY, claimed.length) }, worker));
  }

  /** One schedule in its own transaction, if still due; a failure is recorded as a failed firing. */
  private async fireAlone(trigger: Trigger): Promise<void> {
    let claimed: Trigger | null = null;
    try {
      await this.unitOfWork.run(async () => {
        claimed = await this.triggers.claimIfDue(trigger.workspaceId, trigger.id, this.clock.now());
        if (claimed) await this.fireSchedule(claimed);
      });
    } catch (error) {
      if (!claimed) throw error;
      await this.recordFailure(claimed, error);
    }
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
    await this.triggers.updateSchedules([this.advanced(current, due, this.clock.now())]);
  }

  private advanced(trigger: Trigger, due: Date, now: Date): ScheduleChange {
    if (trigger.spec.kind !== 'schedule') return stop(trigger);
    const next = nextFiring(trigger.spec.configuration, due, now);
    return next
      ? { workspaceId: trigger.workspaceId, id: trigger.id, status: 'enabled', nextFireAt: next }
      : stop(trigger);
  }

  /**
   * Each trigger's editor as a caller, with the rights they have now, or why the firing is refused:
   * the editors, their agents and their profiles are read once for the batch.
   */
  private async check(triggers: Trigger[]): Promise<(Opening | Refusal)[]> {
    if (triggers.length === 0) return [];
    const editors = await this.workspaces.callersFor(
      triggers.map((trigger) => ({
        workspaceId: trigger.workspaceId,
        userId: trigger.editorId,
        keyId: trigger.sId,
      })),
    );
    const agentsByEditor = new Map<string, { editor: Caller; sIds: Set<string> }>();
    for (const [i, editor] of editors.entries()) {
      if (!editor) continue;
      const entry = agentsByEditor.get(editorKey(editor)) ?? { editor, sIds: new Set<string>() };
      entry.sIds.add(triggers[i].agentSId);
      agentsByEditor.set(editorKey(editor), entry);
    }
    const described = new Map<string, AgentDetails>();
    for (const [key, { editor, sIds }] of agentsByEditor) {
      for (const details of await this.agents.describe(editor, [...sIds])) {
        described.set(`${key}|${details.agent.sId}`, details);
      }
    }
    const userIds = [...new Set(editors.flatMap((editor) => (editor ? [editor.userId] : [])))];
    const users = new Map((await this.workspaces.usersByIds(userIds)).map((user) => [user.id, user]));
    return triggers.map((trigger, i) => {
      const editor = editors[i];
      if (!editor)
        return { error: "The trigger's editor is no longer a member of the workspace.", disable: true };
      const details = described.get(`${editorKey(editor)}|${trigger.agentSId}`);
      if (!details) return { error: `Agent ${trigger.agentSId} no longer exists.`, disable: true };
      if (details.agent.status === 'archived')
        return { error: `Agent ${trigger.agentSId} is archived.`, disable: true };
      if (!details.canRead) {
        return {
          error: `The trigger's editor can no longer read agent ${trigger.agentSId}.`,
          disable: false,
        };
      }
      return { editor, trigger, context: messageContext(editor, trigger, users.get(editor.userId)) };
    });
  }

  /** Opens the trigger's conversation now (a webhook's payload as `contentFragments`), in the transaction. */
  async openNow(trigger: Trigger, contentFragments: FragmentInput[]): Promise<Opened> {
    const [checked] = await this.check([trigger]);
    return 'error' in checked ? checked : this.open(checked, contentFragments);
  }

  private async open(opening: Opening, fragments: FragmentInput[] = []): Promise<Opened> {
    try {
      const input = conversationInput(opening);
      const { conversation } = await this.conversations.create(opening.editor, {
        title: input.title,
        triggerId: input.triggerId,
        contentFragments: fragments,
        message: input.message,
      });
      return { conversationId: conversation.id };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { error: error.message, disable: false };
    }
  }

  /** In its own transaction: the firing's rolled back. The occurrence is recorded as failed and skipped. */
  private async recordFailure(trigger: Trigger, error: unknown): Promise<void> {
    this.log.warn(TriggerFiringService.name, { err: error, trigger: trigger.sId }, 'Trigger firing failed');
    await this.unitOfWork
      .run(async () => {
        const current = await this.triggers.claimIfDue(trigger.workspaceId, trigger.id, this.clock.now());
        if (!current?.nextFireAt) return;
        await this.triggers.recordFiring({
          ...pendingFiring(current, current.nextFireAt),
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

/** Editors with the same key see the same agents. */
const editorKey = (editor: Caller) => `${editor.workspaceId}:${editor.userId}:${editor.role}`;

/** A firing row before its outcome is known: failed until the conversation is opened. */
const pendingFiring = (trigger: Trigger, dueAt: Date) => ({
  workspaceId: trigger.workspaceId,
  triggerId: trigger.id,
  dueAt,
  status: 'failed' as const,
  conversationId: null,
  error: null,
});

const failed = (error: string) => ({ status: 'failed' as const, conversationId: null, error });

const stop = (trigger: Trigger): ScheduleChange => ({
  workspaceId: trigger.workspaceId,
  id: trigger.id,
  status: 'disabled',
  nextFireAt: null,
});

function messageContext(
  editor: Caller,
  trigger: Trigger,
  user: { username: string; fullName: string | null; email: string | null; image: string | null } | undefined,
) {
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

/** The conversation a firing opens: titled with the trigger's name, its prompt mentioning the agent. */
function conversationInput({ editor, trigger, context }: Opening) {
  return {
    onBehalfOf: editor,
    title: trigger.name,
    triggerId: trigger.sId,
    message: {
      content: trigger.customPrompt ?? trigger.name,
      mentions: [{ configurationId: trigger.agentSId }],
      context,
    },
  };
}
