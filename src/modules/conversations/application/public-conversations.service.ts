import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import { ConversationEventFeed } from 'src/platform/events/conversation-event-feed';
import { FragmentInput } from 'src/modules/conversations/application/content-fragments.service';
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
import type {
  AgentMessageView,
  SlotView,
  UserMessageView,
} from 'src/modules/conversations/application/views/message.view';
import type {
  PublicConversationView,
  PublicCreatedConversationView,
} from 'src/modules/conversations/application/views/public-conversation.view';
import type { Conversation } from 'src/modules/conversations/domain/conversation';

/** How long a creation or a post waits for the agent messages answering its message. */
export const ANSWERS_WAIT_MS = 10_000;

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
    private readonly events: ConversationEventLog,
    private readonly feed: ConversationEventFeed,
  ) {}

  async create(caller: Caller, input: NewConversationInput): Promise<PublicCreatedConversationView> {
    const { conversation, message, contentFragments } = await this.conversations.create(caller, input);
    // A new conversation's log holds only what this creation wrote: its answers come after.
    if (message) await this.answersOf(conversation, 0n, message);
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
  ): Promise<UserMessageView> {
    const conversation = await this.conversations.get(caller, sId);
    // Where the log stands before the post: the answers are written after this position.
    const before = await this.events.lastId(conversation.id);
    const message = await this.messages.postMessage(caller, sId, input, contentFragments);
    await this.answersOf(conversation, before, message);
    return message;
  }

  /**
   * Waits (at most ANSWERS_WAIT_MS) until each agent the message mentions has an agent message
   * answering it, announced by `agent_message_new` after `afterEventId`.
   */
  private async answersOf(
    conversation: Conversation,
    afterEventId: bigint,
    message: UserMessageView,
  ): Promise<void> {
    const agents = new Set(message.mentions.flatMap((mention) => mention.configurationId ?? [])).size;
    if (agents === 0) return;
    const answers = new Set<string>();
    await this.feed.waitFor(
      conversation.id,
      afterEventId,
      { types: ['agent_message_new'] },
      (event) => {
        const answer = event.type === 'agent_message_new' ? (event.message as AgentMessageView) : null;
        if (answer?.parentMessageId === message.sId) answers.add(answer.sId);
        return answers.size >= agents;
      },
      ANSWERS_WAIT_MS,
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
