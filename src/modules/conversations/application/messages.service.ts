import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { DomainError } from 'src/platform/errors/domain-error';
import {
  ConversationsService,
  PAGE_MAX,
  Page,
} from 'src/modules/conversations/application/conversations.service';
import { ContentFragmentsService } from 'src/modules/conversations/application/content-fragments.service';
import { ContentFragment, FragmentInput } from 'src/modules/conversations/domain/content-fragment';
import { MessageInput, MessageWriter } from 'src/modules/conversations/application/message-writer.service';
import type { UserMessageView } from 'src/modules/conversations/application/views/message.view';
import { MessageRepository } from 'src/modules/conversations/application/ports/message.repository';
import { ScheduledWakeUps } from 'src/modules/conversations/application/ports/scheduled-wake-ups';
import type { Conversation } from 'src/modules/conversations/domain/conversation';
import {
  FragmentIsNotAMessage,
  MessageNotFound,
} from 'src/modules/conversations/domain/conversations.errors';
import { Message, Reaction } from 'src/modules/conversations/domain/message';
import {
  ReactionInput,
  canonicalEmoji,
  checkNewReaction,
  givenReaction,
  parseEmoji,
} from 'src/modules/conversations/domain/reaction';

/** The messages of a conversation: posted, found, listed and reacted to (edits and retries: MessageVersionsService). */

/** What other contexts may know of messages, without importing this context's domain. */
@Injectable()
export class MessagesService {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messages: MessageRepository,
    private readonly writer: MessageWriter,
    private readonly fragments: ContentFragmentsService,
    private readonly wakeUps: ScheduledWakeUps,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * Posts a user message, after the content fragments it brings (in the same transaction); it comes
   * back in its wire form, rendered once for its event and the answer.
   */
  async postMessage(
    caller: Caller,
    sId: string,
    input: MessageInput,
    contentFragments: FragmentInput[] = [],
  ): Promise<UserMessageView> {
    const conversation = await this.conversations.get(caller, sId);
    await this.assertMayWrite(caller, conversation);
    const prepared = await this.writer.prepare(caller, input, caller.userId);
    const draft = { caller, conversation, input, previous: null, authorId: caller.userId, prepared };
    return this.unitOfWork.run(async () => {
      await this.fragments.write(caller, conversation, contentFragments);
      const written = await this.writer.writeOne(draft);
      await this.writer.announce(draft, written);
      return written.view;
    });
  }

  /**
   * While a member's wake-up is scheduled in the conversation, only they (and admins) post or edit
   * in it, so that nobody steers what the agent will answer for them (Dust's rule).
   */
  async assertMayWrite(caller: Caller, conversation: Conversation): Promise<void> {
    if (caller.isAdmin) return;
    const owner = await this.wakeUps.ownerOfScheduled(caller.workspaceId, conversation.id);
    if (owner !== null && owner !== caller.userId) {
      throw new DomainError(
        'refused_in_current_state',
        'This conversation has a scheduled wake-up of another member: only they or an admin can post or edit messages until it fires or is cancelled.',
      );
    }
  }

  async findMessage(caller: Caller, conversation: Conversation, messageSId: string): Promise<Message> {
    const message = await this.messages.findBySId(caller.workspaceId, conversation.id, messageSId);
    if (message) return message;
    // Fragments share the message list: a client may well take one's sId for a message's.
    if (await this.fragments.isFragment(caller, conversation, messageSId)) {
      throw new FragmentIsNotAMessage(messageSId);
    }
    throw new MessageNotFound(messageSId);
  }

  /**
   * The latest version of every slot of a conversation the caller read (messages and content
   * fragments), in rank order, after `afterRank`.
   */
  async listMessages(
    caller: Caller,
    conversation: Conversation,
    options: { limit: number; afterRank: number },
  ): Promise<{ page: Page<Message | ContentFragment>; reactions: Reaction[] }> {
    const limit = Math.min(options.limit, PAGE_MAX);
    const [{ messages, reactions }, fragments] = await this.unitOfWork.all([
      () => this.messages.listLatest(caller.workspaceId, conversation.id, options.afterRank, limit + 1),
      () => this.fragments.listAfter(caller, conversation, options.afterRank, limit + 1),
    ]);
    const rows =
      fragments.length === 0 ? messages : [...messages, ...fragments].sort((a, b) => a.rank - b.rank);
    const items = rows.slice(0, limit);
    return { page: { items, next: rows.length > limit ? items[items.length - 1].rank : null }, reactions };
  }

  /**
   * Adds or removes the caller's reaction. A new emoji on a message counts against the cap, checked
   * under a per-message lock so that concurrent reactions cannot pass it together.
   */
  async react(
    caller: Caller,
    sId: string,
    messageSId: string,
    input: ReactionInput,
    add: boolean,
  ): Promise<Message> {
    const { field, value } = givenReaction(input);
    // Removal also takes a string that is not an emoji: reactions stored before the rule can go.
    const emoji = add ? parseEmoji(value, field) : (canonicalEmoji(value) ?? value);
    const conversation = await this.conversations.get(caller, sId);
    const message = await this.findMessage(caller, conversation, messageSId);
    const reaction = { messageId: message.id, userId: caller.userId, emoji };
    if (!add) {
      await this.messages.removeReaction(caller.workspaceId, reaction);
      return message;
    }
    await this.unitOfWork.run(async () => {
      await this.messages.lockReactions(message.id);
      checkNewReaction(emoji, await this.messages.emojisOn(caller.workspaceId, message.id));
      await this.messages.addReaction(caller.workspaceId, reaction);
    });
    return message;
  }
}
