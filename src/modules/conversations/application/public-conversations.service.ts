import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import type {
  ConversationEvent,
  ConversationEventType,
} from 'src/modules/conversations/application/views/conversation-event.view';
import { ConversationEventFeed } from 'src/platform/events/conversation-event-feed';
import { FragmentInput } from 'src/modules/conversations/domain/content-fragment';
import { ConversationDetailsLoader } from 'src/modules/conversations/application/conversation-details.loader';
import { renderConversation } from 'src/modules/conversations/application/views/conversation.view';
import {
  ConversationsService,
  NewConversationInput,
  PAGE_MAX,
} from 'src/modules/conversations/application/conversations.service';
import { ForksService } from 'src/modules/conversations/application/forks.service';
import { MessageViews } from 'src/modules/conversations/application/message-views.loader';
import { MessageInput } from 'src/modules/conversations/application/message-writer.service';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import type { SlotView, UserMessageView } from 'src/modules/conversations/application/views/message.view';
import type {
  PublicConversationView,
  PublicCreatedConversationView,
} from 'src/modules/conversations/application/views/public-conversation.view';
import type { Conversation } from 'src/modules/conversations/domain/conversation';

/** How long a creation or a post waits for the agent messages answering its message. */
export const ANSWERS_WAIT_MS = 10_000;
/**
 * How long a `blocking` creation or post waits in all for those agent messages' outcomes: the wait
 * for the messages to exist is part of it, since they are created only once a run slot is free.
 */
export const BLOCKING_WAIT_MS = 120_000;

const ANSWER_AND_OUTCOME_TYPES: ConversationEventType[] = [
  'agent_message_new',
  'agent_message_done',
  'agent_generation_cancelled',
];

/**
 * The conversation use cases in the shapes Dust's client reads (the public family). A conversation
 * carries its content; a creation or a post answers once the agent messages answering its message
 * exist (a bounded wait, on the conversation's events), as Dust answers only then: the client
 * streams the answer of the agent message it finds in `content`, or in the conversation it reads next.
 */
@Injectable()
export class PublicConversationsService {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
    private readonly forks: ForksService,
    private readonly details: ConversationDetailsLoader,
    private readonly views: MessageViews,
    private readonly events: ConversationEventLog<ConversationEvent>,
    private readonly feed: ConversationEventFeed<ConversationEvent>,
  ) {}

  async create(caller: Caller, input: NewConversationInput): Promise<PublicCreatedConversationView> {
    const { conversation, message, contentFragments } = await this.conversations.create(caller, input);
    // A new conversation's log holds only what this creation wrote: its answers come after.
    if (message) await this.answer(conversation, 0n, message, input.blocking ?? false);
    const created: PublicCreatedConversationView = {
      conversation: await this.withContent(caller, conversation),
    };
    if (message) created.message = message;
    if (contentFragments.length > 0) created.contentFragments = contentFragments;
    return created;
  }

  async get(caller: Caller, sId: string): Promise<PublicConversationView> {
    const read = await this.conversations.getForReader(caller, sId);
    const details = await this.details.loadRead(caller, read);
    return { ...renderConversation(details), content: await this.content(caller, read.conversation) };
  }

  async update(
    caller: Caller,
    sId: string,
    input: { title?: string; read?: boolean },
  ): Promise<PublicConversationView> {
    return this.withContent(caller, await this.conversations.update(caller, sId, input));
  }

  async fork(caller: Caller, sId: string, sourceMessageSId: string): Promise<PublicConversationView> {
    return this.withContent(caller, await this.forks.fork(caller, sId, sourceMessageSId));
  }

  async postMessage(
    caller: Caller,
    sId: string,
    input: MessageInput,
    contentFragments: FragmentInput[],
    blocking = false,
  ): Promise<UserMessageView> {
    const conversation = await this.conversations.get(caller, sId);
    // Where the log stands before the post: the answers are written after this position.
    const before = await this.events.lastId(conversation.id);
    const message = await this.messages.postMessage(caller, sId, input, contentFragments);
    await this.answer(conversation, before, message, blocking);
    return message;
  }

  /**
   * Waits until each agent the message mentions has an agent message answering it (at most
   * ANSWERS_WAIT_MS), or, when `blocking`, until each of those has its outcome too (at most
   * BLOCKING_WAIT_MS in all, the time its runs wait for a slot included: the agent messages are
   * created only once a slot is free). Read from the events after `afterEventId`, where an agent
   * message's `agent_message_new` comes before its `agent_message_done` or `agent_generation_cancelled`.
   */
  private async answer(
    conversation: Conversation,
    afterEventId: bigint,
    message: UserMessageView,
    blocking: boolean,
  ): Promise<void> {
    const agents = new Set(message.mentions.flatMap((mention) => mention.configurationId ?? [])).size;
    if (agents === 0) return;
    const answers = new Set<string>();
    const unfinished = new Set<string>();
    await this.feed.waitFor(
      conversation.id,
      afterEventId,
      { types: blocking ? ANSWER_AND_OUTCOME_TYPES : ['agent_message_new'] },
      (event) => {
        if (event.type === 'agent_message_new') {
          const answer = event.message;
          if (answer.parentMessageId === message.sId) {
            answers.add(answer.sId);
            unfinished.add(answer.sId);
          }
        } else if (event.type === 'agent_message_done' || event.type === 'agent_generation_cancelled') {
          unfinished.delete(event.messageId);
        }
        return answers.size >= agents && (!blocking || unfinished.size === 0);
      },
      blocking ? BLOCKING_WAIT_MS : ANSWERS_WAIT_MS,
    );
  }

  private async withContent(caller: Caller, conversation: Conversation): Promise<PublicConversationView> {
    const [details] = await this.details.load(caller, [conversation]);
    return { ...renderConversation(details), content: await this.content(caller, conversation) };
  }

  /** The latest version of every slot, in rank order, each as the list of its versions. */
  private async content(caller: Caller, conversation: Conversation): Promise<SlotView[][]> {
    const content: SlotView[][] = [];
    let afterRank = -1;
    for (;;) {
      const { page, reactions } = await this.messages.listMessages(caller, conversation, {
        limit: PAGE_MAX,
        afterRank,
      });
      const slots = await this.views.slotViews(caller, conversation.sId, page.items, reactions);
      content.push(...slots.map((slot) => [slot]));
      if (page.next === null) return content;
      afterRank = page.next;
    }
  }
}
