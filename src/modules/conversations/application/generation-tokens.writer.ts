import { Injectable } from '@nestjs/common';
import { AsyncResource } from 'node:async_hooks';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import type {
  ConversationEvent,
  TokensClassification,
} from 'src/modules/conversations/application/views/conversation-event.view';
import { MessageRepository } from 'src/modules/conversations/application/ports/message.repository';
import type { Conversation } from 'src/modules/conversations/domain/conversation';
import type { AgentMessage } from 'src/modules/conversations/domain/message';

/** The agent message an answer streams to, and its conversation: the ids its writes name. */
export interface StreamTarget {
  conversation: Pick<Conversation, 'id' | 'workspaceId'>;
  message: Pick<AgentMessage, 'id' | 'sId' | 'agentSId'>;
}

/**
 * Appends of all answers wait at most this long to share one write: a write starts at most once
 * per window, unless an append asks for one at once (a run's first chunk).
 */
export const TOKENS_WRITE_WINDOW_MS = 100;

/** The text one answer streamed since the last write, in runs of one classification, in order. */
interface PendingAnswer {
  target: StreamTarget;
  parts: { text: string; classification: TokensClassification }[];
  written: Promise<boolean>;
  settle: (running: boolean) => void;
  fail: (error: unknown) => void;
}

/**
 * Streams the generated text of every answer of the process through shared writes: the appends of
 * many answers gathered in a window go to the database in one transaction (one statement for the
 * messages' new text, one for their `generation_tokens` events, which keep each conversation's
 * order), instead of one transaction an answer each. A message's content grows by its new text
 * only, so a reader of the message mid-run sees what was streamed so far.
 */
@Injectable()
export class GenerationTokensWriter {
  private pending = new Map<number, PendingAnswer>();
  private writing = false;
  private urgent = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastWriteAt = -Infinity;
  /** Bound where the writer is made, outside any transaction: a write never joins the one of the append that scheduled it. */
  private readonly writeDetached = AsyncResource.bind(() => void this.write());

  constructor(
    private readonly messages: MessageRepository,
    private readonly events: ConversationEventLog<ConversationEvent>,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * Queues `text` of the answer; resolves once it is written: true, or false when the message no
   * longer runs (cancelled or edited: the text is then dropped). Appends of one answer are written
   * in the order made. `urgent` starts a write at once instead of at the end of the window.
   */
  append(
    target: StreamTarget,
    text: string,
    classification: TokensClassification,
    urgent = false,
  ): Promise<boolean> {
    let answer = this.pending.get(target.message.id);
    if (!answer) {
      let settle!: (running: boolean) => void;
      let fail!: (error: unknown) => void;
      const written = new Promise<boolean>((resolve, reject) => ((settle = resolve), (fail = reject)));
      answer = { target, parts: [], written, settle, fail };
      this.pending.set(target.message.id, answer);
    }
    const last = answer.parts.at(-1);
    if (last?.classification === classification) last.text += text;
    else answer.parts.push({ text, classification });
    this.schedule(urgent);
    return answer.written;
  }

  private schedule(urgent: boolean): void {
    this.urgent ||= urgent;
    // The write under way schedules the next when it ends.
    if (this.writing) return;
    const wait = this.urgent ? 0 : Math.max(0, this.lastWriteAt + TOKENS_WRITE_WINDOW_MS - this.now());
    if (this.timer && !this.urgent) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(this.writeDetached, wait);
  }

  private async write(): Promise<void> {
    this.timer = null;
    this.urgent = false;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    if (batch.length === 0) return;
    this.writing = true;
    this.lastWriteAt = this.now();
    try {
      const running = await this.persist(batch);
      for (const answer of batch) answer.settle(running.has(answer.target.message.id));
    } catch (error) {
      for (const answer of batch) answer.fail(error);
    } finally {
      this.writing = false;
      if (this.pending.size > 0) this.schedule(false);
    }
  }

  /**
   * One transaction: the conversations' append locks (taken in one order, before any row, as
   * every writer of the log does), the running messages' new text, then their events. It runs on
   * a connection of its own: a burst of requests holding the pool never delays the streams.
   */
  private persist(batch: PendingAnswer[]): Promise<Set<number>> {
    return this.unitOfWork.runInLane(GenerationTokensWriter.name, async () => {
      const conversationIds = [...new Set(batch.map(({ target }) => target.conversation.id))];
      await this.events.lockForAppend(...conversationIds);
      const running = await this.messages.appendContent(
        batch.map(({ target: { conversation, message }, parts }) => ({
          workspaceId: conversation.workspaceId,
          messageId: message.id,
          // Reasoning is streamed, but it is not the answer.
          text: parts.flatMap((part) => (part.classification === 'tokens' ? [part.text] : [])).join(''),
        })),
      );
      const created = this.now();
      await this.events.appendMany(
        batch.flatMap(({ target: { conversation, message }, parts }) =>
          running.has(message.id)
            ? parts.map(({ text, classification }) => ({
                workspaceId: conversation.workspaceId,
                conversationId: conversation.id,
                event: {
                  type: 'generation_tokens' as const,
                  created,
                  configurationId: message.agentSId,
                  messageId: message.sId,
                  text,
                  classification,
                },
              }))
            : [],
        ),
      );
      return running;
    });
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}
