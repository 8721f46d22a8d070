import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { DomainError } from 'src/platform/errors/domain-error';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { WorkspacesService } from 'src/modules/identity/application/workspaces.service';
import { WakeUpRepository } from 'src/modules/wakeups/application/ports/wakeup.repository';
import { WakeUpsService } from 'src/modules/wakeups/application/wakeups.service';
import { WakeUp, afterFailure, afterFiring } from 'src/modules/wakeups/domain/wakeup';

/** The scheduler sleeps at most this long, in case another process created an earlier wake-up. */
const MAX_SLEEP_MS = 5_000;
/** Firings one process runs at once. */
const CONCURRENCY = 8;
/** Errors that mean the wake-up can never fire: its agent, conversation or owner is gone. */
const FATAL_CODES = new Set([
  'conversation_not_found',
  'conversation_access_restricted',
  'invalid_request_error',
]);

/**
 * Runs in every process. Due wake-ups are claimed one per transaction with FOR UPDATE SKIP LOCKED,
 * and the firing (a system message that mentions the agent) and the new state commit together:
 * each due time fires exactly once however many processes run.
 */
@Injectable()
export class WakeUpScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WakeUpScheduler.name);
  private timer: NodeJS.Timeout | null = null;
  private wakeAt: number | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly wakeUps: WakeUpRepository,
    private readonly service: WakeUpsService,
    private readonly conversations: ConversationsService,
    private readonly workspaces: WorkspacesService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.service.onScheduled((dueAt) => this.schedule(dueAt.getTime()));
    // Catches up on what fell due while no process ran.
    this.schedule(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Fires every due wake-up now (tests with a controlled clock call this directly). */
  async runDue(): Promise<void> {
    if (this.running) return this.running;
    this.running = (async () => {
      await Promise.all(Array.from({ length: CONCURRENCY }, () => this.drain()));
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private schedule(at: number): void {
    if (this.stopped) return;
    if (this.timer && this.wakeAt !== null && this.wakeAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.wakeAt = at;
    this.timer = setTimeout(() => void this.tick(), Math.max(0, at - this.clock.now().getTime()));
  }

  private async tick(): Promise<void> {
    this.timer = null;
    this.wakeAt = null;
    try {
      await this.runDue();
    } catch (error) {
      this.logger.error({ err: error }, 'Wake-up scheduler cycle failed');
    }
    if (this.stopped) return;
    const next = await this.wakeUps.nextDueAt().catch(() => null);
    const now = this.clock.now().getTime();
    this.schedule(Math.min(next ? next.getTime() : Infinity, now + MAX_SLEEP_MS));
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (await this.fireOne())) {
      // keep going while something is due
    }
  }

  /** Claims and fires one due wake-up; false when none is due. */
  private async fireOne(): Promise<boolean> {
    let claimed: WakeUp | null = null;
    try {
      return await this.unitOfWork.run(async () => {
        claimed = await this.wakeUps.claimDue(this.clock.now());
        if (!claimed) return false;
        await this.fire(claimed);
        return true;
      });
    } catch (error) {
      if (!claimed) throw error;
      this.logger.warn(
        { err: error, wakeUp: (claimed as WakeUp).sId },
        'Wake-up firing failed; retrying later',
      );
      await this.recordFailure(claimed);
      return true;
    }
  }

  private async fire(wakeUp: WakeUp): Promise<void> {
    const now = this.clock.now();
    const owner = await this.workspaces.callerFor(wakeUp.workspaceId, wakeUp.ownerId, wakeUp.sId);
    let conversation;
    try {
      if (!owner) throw new DomainError('conversation_access_restricted', 'The owner left the workspace.');
      conversation = await this.conversations.getById(owner, wakeUp.conversationId);
      const author = await this.workspaces.systemUser();
      await this.conversations.postSystemMessage(owner, conversation.sId, {
        content: wakeUp.reason,
        mentions: [{ configurationId: wakeUp.agentSId }],
        authorId: author.id,
      });
    } catch (error) {
      if (!(error instanceof DomainError) || !FATAL_CODES.has(error.code)) throw error;
      // The agent, the conversation or the owner's access is gone: the wake-up can never fire.
      const cancelled = await this.wakeUps.update(wakeUp, { status: 'cancelled', nextFireAt: null });
      if (conversation && owner) await this.service.announce(conversation, cancelled, owner.userSId);
      return;
    }
    const fired = await this.wakeUps.update(wakeUp, afterFiring(wakeUp, now));
    await this.service.announce(conversation, fired, owner.userSId);
  }

  /** In its own transaction: the firing's transaction rolled back. */
  private async recordFailure(wakeUp: WakeUp): Promise<void> {
    await this.unitOfWork
      .run(async () => {
        const current = await this.wakeUps.claimIfDue(wakeUp.workspaceId, wakeUp.id, this.clock.now());
        if (current) await this.wakeUps.update(current, afterFailure(current, this.clock.now()));
      })
      .catch((error: unknown) => this.logger.error({ err: error }, 'Could not record a failed wake-up'));
  }
}
