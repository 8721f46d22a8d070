import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { DomainError } from 'src/platform/errors/domain-error';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { Counter, Metrics } from 'src/platform/observability/metrics';
import { ConversationsService, SystemMessagesService } from 'src/modules/conversations/conversations.api';
import { WorkspacesService } from 'src/modules/identity/identity.api';
import { WakeUpChanges, WakeUpRepository } from 'src/modules/wakeups/application/ports/wakeup.repository';
import { ConversationRef, WakeUpsService } from 'src/modules/wakeups/application/wakeups.service';
import { WakeUp, afterFailure, afterFiring, isTerminal } from 'src/modules/wakeups/domain/wakeup';

/**
 * Due wake-ups one transaction claims and fires together: the look-ups (owners, conversations,
 * agents) are shared and there is one commit for all, where one per firing made a burst of due
 * wake-ups fire at a few dozen a second.
 */
export const BATCH_SIZE = 50;
/**
 * Wake-ups a batch leaves to transactions of their own (their conversation was held, or the batch
 * failed) are fired this many at a time: each may wait on its conversation, holding a connection.
 */
const ALONE_CONCURRENCY = 4;
/** Errors that mean the wake-up can never fire: its agent, conversation or owner is gone. */
const FATAL_CODES = new Set([
  'conversation_not_found',
  'conversation_access_restricted',
  'invalid_request_error',
  // An archived agent.
  'agent_configuration_not_found',
]);

/**
 * Fires due wake-ups. They are claimed in batches with FOR UPDATE SKIP LOCKED, and each firing (a
 * system message that mentions the agent) and the wake-up's new state commit together: each due
 * time fires exactly once however many processes run. When one firing of a batch fails, the batch
 * is undone and its wake-ups are fired one per transaction, so only that one retries. Wake-ups
 * whose conversation another transaction holds are left out of their batch and fired in
 * transactions of their own, which wait for it.
 */
@Injectable()
export class WakeUpFiringService {
  private readonly due: Counter;
  private readonly fired: Counter<'outcome'>;

  constructor(
    private readonly wakeUps: WakeUpRepository,
    private readonly service: WakeUpsService,
    private readonly conversations: ConversationsService,
    private readonly systemMessages: SystemMessagesService,
    private readonly workspaces: WorkspacesService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly log: OperatorLog,
    metrics: Metrics,
  ) {
    this.due = metrics.counter('wakeups_due_total', 'Due wake-ups claimed for firing.');
    this.fired = metrics.counter(
      'wakeups_fired_total',
      'Wake-ups fired (their message posted), or whose firing failed and will be retried.',
      ['outcome'],
    );
  }

  /** The earliest due time of any scheduled wake-up, or null when none is scheduled. */
  nextDueAt(): Promise<Date | null> {
    return this.wakeUps.nextDueAt();
  }

  /** Claims and fires up to BATCH_SIZE due wake-ups in one transaction; returns how many it claimed. */
  async fireDueBatch(): Promise<number> {
    // Outside the firing transaction (so concurrent first firings do not queue on its creation):
    // the author is created at the first cycle and kept once committed.
    const author = await this.workspaces.systemUser();
    let claimed: WakeUp[] = [];
    let busy: WakeUp[] = [];
    try {
      await this.unitOfWork.run(async () => {
        claimed = await this.wakeUps.claimDue(this.clock.now(), BATCH_SIZE);
        if (claimed.length > 0) busy = await this.fire(claimed, author.id, { skipBusy: true });
      });
      this.due.inc(claimed.length);
      this.fired.inc({ outcome: 'fired' }, claimed.length - busy.length);
    } catch (error) {
      this.due.inc(claimed.length);
      if (claimed.length === 0) throw error;
      if (claimed.length === 1) {
        await this.recordFailure(claimed[0], error);
        return 1;
      }
      this.log.warn(
        WakeUpFiringService.name,
        { err: error, wakeUps: claimed.length },
        'Wake-up batch failed; firing its wake-ups one by one',
      );
      await this.fireEachAlone(claimed, author.id);
      return claimed.length;
    }
    // Those whose conversation another transaction held wait for it, as any post would, without
    // holding up the batch.
    await this.fireEachAlone(busy, author.id);
    return claimed.length;
  }

  private async fireEachAlone(wakeUps: WakeUp[], authorId: number): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < wakeUps.length) await this.fireAlone(wakeUps[next++], authorId);
    };
    await Promise.all(Array.from({ length: Math.min(ALONE_CONCURRENCY, wakeUps.length) }, worker));
  }

  /** One wake-up in its own transaction, if still due; a failure is recorded for a later retry. */
  private async fireAlone(wakeUp: WakeUp, authorId: number): Promise<void> {
    let claimed: WakeUp | null = null;
    try {
      await this.unitOfWork.run(async () => {
        claimed = await this.wakeUps.claimIfDue(wakeUp.workspaceId, wakeUp.id, this.clock.now());
        if (claimed) await this.fire([claimed], authorId);
      });
      if (claimed) this.fired.inc({ outcome: 'fired' });
    } catch (error) {
      if (!claimed) throw error;
      await this.recordFailure(claimed, error);
    }
  }

  /**
   * Posts the system messages of claimed wake-ups and moves each to its next state, in the current
   * transaction. With `skipBusy`, those whose conversation another transaction holds are left as
   * they are and returned.
   */
  private async fire(
    claimed: WakeUp[],
    authorId: number,
    options: { skipBusy?: boolean } = {},
  ): Promise<WakeUp[]> {
    const now = this.clock.now();
    const owners = await this.workspaces.callersFor(
      claimed.map((wakeUp) => ({
        workspaceId: wakeUp.workspaceId,
        userId: wakeUp.ownerId,
        keyId: wakeUp.sId,
      })),
    );
    const firing = claimed.flatMap((wakeUp, i) => {
      const owner = owners[i];
      return owner ? [{ wakeUp, owner }] : [];
    });
    const outcomes = await this.systemMessages.postSystemMessages(
      firing.map(({ wakeUp, owner }) => ({
        onBehalfOf: owner,
        conversationId: wakeUp.conversationId,
        content: wakeUp.reason,
        mentions: [{ configurationId: wakeUp.agentSId }],
        authorId,
      })),
      options,
    );
    // An owner who left, an agent, conversation or access that is gone: the wake-up can never fire.
    const cancel: WakeUpChanges = { status: 'cancelled', nextFireAt: null };
    const updates: { wakeUp: WakeUp; changes: WakeUpChanges }[] = claimed.flatMap((wakeUp, i) =>
      owners[i] ? [] : [{ wakeUp, changes: cancel }],
    );
    const announced: { conversation: ConversationRef; index: number; owner: Caller }[] = [];
    const busy: WakeUp[] = [];
    for (const [i, { wakeUp, owner }] of firing.entries()) {
      const outcome = outcomes[i];
      if ('busy' in outcome) {
        busy.push(wakeUp);
        continue;
      }
      if ('refused' in outcome && !FATAL_CODES.has(outcome.refused.code)) throw outcome.refused;
      const changes = 'refused' in outcome ? cancel : afterFiring(wakeUp, now);
      if (outcome.conversation)
        announced.push({ conversation: outcome.conversation, index: updates.length, owner });
      updates.push({ wakeUp, changes });
    }
    const updated = await this.wakeUps.updateMany(updates);
    for (const { conversation, index, owner } of announced) {
      await this.service.announce(conversation, updated[index], owner.userSId);
    }
    return busy;
  }

  /** `wake_up_updated` in the conversation's log, when its owner can still read the conversation. */
  private async announceAsOwner(wakeUp: WakeUp): Promise<void> {
    const [owner] = await this.workspaces.callersFor([
      { workspaceId: wakeUp.workspaceId, userId: wakeUp.ownerId, keyId: wakeUp.sId },
    ]);
    if (!owner) return;
    try {
      const conversation = await this.conversations.getById(owner, wakeUp.conversationId);
      await this.service.announce(conversation, wakeUp, owner.userSId);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }

  /** In its own transaction: the firing's transaction rolled back. An expiry is announced like any change. */
  private async recordFailure(wakeUp: WakeUp, error: unknown): Promise<void> {
    this.fired.inc({ outcome: 'failed' });
    this.log.warn(
      WakeUpFiringService.name,
      { err: error, wakeUp: wakeUp.sId },
      'Wake-up firing failed; retrying later',
    );
    await this.unitOfWork
      .run(async () => {
        const current = await this.wakeUps.claimIfDue(wakeUp.workspaceId, wakeUp.id, this.clock.now());
        if (!current) return;
        const updated = await this.wakeUps.update(current, afterFailure(current, this.clock.now()));
        if (isTerminal(updated.status)) await this.announceAsOwner(updated);
      })
      .catch((failure: unknown) =>
        this.log.error(WakeUpFiringService.name, { err: failure }, 'Could not record a failed wake-up'),
      );
  }
}
