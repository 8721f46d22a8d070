import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { AccessChanges } from 'src/platform/events/access-changes';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import type { ConversationEvent } from 'src/modules/conversations/application/views/conversation-event.view';
import { InProcessEvents } from 'src/platform/events/in-process-events';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { generateSId } from 'src/platform/ids/sid';
import { MessagePosted } from 'src/modules/conversations/application/conversations.events';
import { AgentDetails, AgentsService } from 'src/modules/agents/agents.api';
import { WorkspacesService } from 'src/modules/identity/identity.api';
import { renderUserMessage } from 'src/modules/conversations/application/message-views.loader';
import { ConversationRepository } from 'src/modules/conversations/application/ports/conversation.repository';
import { MessageRepository } from 'src/modules/conversations/application/ports/message.repository';
import { RunAllowance } from 'src/modules/conversations/application/ports/run-allowance';
import type { UserMessageView } from 'src/modules/conversations/application/views/message.view';
import { Conversation, deriveTitle } from 'src/modules/conversations/domain/conversation';
import {
  Mention,
  MessageContext,
  UserMessage,
  agentMentions,
} from 'src/modules/conversations/domain/message';

export interface MessageInput {
  content: string;
  mentions: Mention[];
  context: Omit<MessageContext, 'origin'> & { origin?: MessageContext['origin'] };
  /** The model the client asks the mentioned agents to run on: only their own is accepted. */
  modelSelection?: ModelSelection;
}

/**
 * What writing a user message needs, read before the write (and shared by a batch): the agents
 * it mentions, read once for the checks, the message's view and the start of their runs.
 */
export interface PreparedMessage {
  agents: AgentDetails[];
  render: (message: UserMessage) => UserMessageView;
}

/** A user message about to be written: a new slot, or the next version of `previous`. */
export interface UserMessageDraft {
  caller: Caller;
  conversation: Conversation;
  input: MessageInput;
  previous: UserMessage | null;
  authorId: number;
  prepared: PreparedMessage;
}

/** A written user message, its view (as its event carries it) and its conversation as the write left it. */
export interface WrittenMessage {
  conversation: Conversation;
  message: UserMessage;
  view: UserMessageView;
}

/** The model a message asks its agents to answer with (Dust's `modelSelection`). */
export interface ModelSelection {
  providerId: string;
  modelId: string;
  reasoningEffort?: AgentDetails['agent']['model']['reasoningEffort'];
}

/**
 * An agent here always runs on the model its configuration names (no agent lets a message choose
 * another), so a selection is accepted only when it names that model, and that reasoning effort
 * when it names one, for every mentioned agent.
 */
function checkModelSelection(selection: ModelSelection, agents: AgentDetails[]): void {
  const sameModel = ({ model }: AgentDetails['agent']) =>
    model.providerId === selection.providerId &&
    model.modelId === selection.modelId &&
    (selection.reasoningEffort === undefined || model.reasoningEffort === selection.reasoningEffort);
  const other = agents.find(({ agent }) => !sameModel(agent))?.agent;
  if (other) {
    const { providerId, modelId, reasoningEffort } = other.model;
    throw new InvalidRequestError(
      `modelSelection: the agent "${other.name}" runs on its configured model ${providerId}/${modelId} with reasoning effort "${reasoningEffort}"; it does not let a message choose another.`,
    );
  }
}

/**
 * The one write pipeline of user messages (posts, edits, wake-ups' system messages): prepare
 * what a message needs, write it with its events and the conversation's derived title, and
 * announce it to the runtime in the same transaction.
 */
@Injectable()
export class MessageWriter {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly messages: MessageRepository,
    private readonly events: ConversationEventLog<ConversationEvent>,
    private readonly agents: AgentsService,
    private readonly workspaces: WorkspacesService,
    private readonly inProcessEvents: InProcessEvents,
    private readonly accessChanges: AccessChanges,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly runAllowance: RunAllowance,
  ) {}

  /**
   * Checks the mentions (usable agents, members, and the workspace's token budget when an agent is
   * mentioned) and reads what rendering the message needs. A post calls it before its
   * transaction, so that holds no read; a batch of wake-ups in theirs.
   */
  async prepare(
    caller: Caller,
    input: Pick<MessageInput, 'mentions' | 'modelSelection'>,
    authorId: number,
  ): Promise<PreparedMessage> {
    const mentioned = agentMentions(input.mentions);
    const [agents, authors] = await this.unitOfWork.all([
      () => this.agents.resolveMentions(caller, mentioned),
      () => this.workspaces.usersByIds([authorId]),
      () => (mentioned.length > 0 ? this.assertMayRun(caller) : Promise.resolve()),
    ]);
    await this.checkUserMentions(caller, input.mentions);
    if (input.modelSelection) checkModelSelection(input.modelSelection, agents);
    const users = new Map(authors.map((user) => [user.id, user]));
    return { agents, render: (message) => renderUserMessage(message, { users, agents, reactions: [] }) };
  }

  /** `write` of one message; in a transaction. */
  async writeOne(draft: UserMessageDraft): Promise<WrittenMessage> {
    const [written] = await this.write([draft]);
    return written;
  }

  /**
   * Writes user messages and their events, in the order given, with one statement per step
   * whatever their number (ranks and conversation changes, the messages); in a transaction.
   * Messages of one conversation all start from the state `conversation` of its first draft.
   */
  async write(drafts: UserMessageDraft[]): Promise<WrittenMessage[]> {
    const byConversation = new Map<number, UserMessageDraft[]>();
    for (const draft of drafts) {
      const list = byConversation.get(draft.conversation.id) ?? [];
      list.push(draft);
      byConversation.set(draft.conversation.id, list);
    }
    const reservations = [...byConversation.values()].map((list) => {
      const { conversation } = list[0];
      const spaces = list.flatMap((draft) =>
        draft.prepared.agents.flatMap((agent) => agent.requestedSpaceIds),
      );
      return {
        workspaceId: conversation.workspaceId,
        id: conversation.id,
        count: list.filter((draft) => draft.previous === null).length,
        requestedSpaceIds: [...new Set([...conversation.requestedSpaceIds, ...spaces])].sort(),
        title: conversation.title === null ? deriveTitle(list[0].input.content) : null,
      };
    });
    const reserved = await this.conversations.reserveRanks(reservations);
    for (const reservation of reservations) {
      // Members lacking a newly requested space lose access: announced before this message's
      // events, so their open streams hold them back until they are re-checked.
      const before = byConversation.get(reservation.id)![0].conversation;
      if (reservation.requestedSpaceIds.length > before.requestedSpaceIds.length) {
        await this.accessChanges.announce({ kind: 'conversation_changed', conversationId: reservation.id });
      }
    }
    const nextRank = new Map([...reserved].map(([id, { first }]) => [id, first]));
    const messages = await this.messages.insertUserMessages(
      drafts.map(({ caller, conversation, input, previous, authorId }) => {
        let rank = previous?.rank;
        if (rank === undefined) {
          rank = nextRank.get(conversation.id)!;
          nextRank.set(conversation.id, rank + 1);
        }
        return {
          type: 'user_message' as const,
          sId: generateSId(),
          workspaceId: caller.workspaceId,
          conversationId: conversation.id,
          rank,
          version: previous ? previous.version + 1 : 0,
          userId: authorId,
          content: input.content,
          mentions: input.mentions,
          context: { ...input.context, origin: input.context.origin ?? 'api' },
        };
      }),
    );
    const titled = new Set<number>();
    const written = drafts.map((draft, i) => ({ draft, message: messages[i] }));
    const views = written.map(({ draft, message }) => draft.prepared.render(message));
    // The authors who write as themselves have read their conversation up to their message.
    await this.conversations.markReadMany(
      drafts
        .filter(({ caller, authorId }) => authorId === caller.userId)
        .map(({ caller, conversation }) => ({
          workspaceId: caller.workspaceId,
          conversationId: conversation.id,
          userId: caller.userId,
        })),
      this.clock.now(),
    );
    const events: { workspaceId: number; conversationId: number; event: ConversationEvent }[] = [];
    for (const [i, { draft, message }] of written.entries()) {
      const { caller, conversation } = draft;
      events.push({
        workspaceId: caller.workspaceId,
        conversationId: conversation.id,
        event: {
          type: 'user_message_new',
          created: message.createdAt.getTime(),
          messageId: message.sId,
          message: views[i],
        },
      });
      const after = reserved.get(conversation.id)!.conversation;
      if (conversation.title === null && after.title && !titled.has(conversation.id)) {
        titled.add(conversation.id);
        events.push(this.titleEvent(after, after.title));
      }
    }
    await this.events.appendMany(events);
    return written.map(({ draft, message }, i) => ({
      conversation: reserved.get(draft.conversation.id)!.conversation,
      message,
      view: views[i],
    }));
  }

  /** Refuses, writing nothing, when the workspace may start no agent run now. */
  assertMayRun(caller: Caller): Promise<void> {
    return this.runAllowance.assertMayStartRuns(caller.workspaceId);
  }

  async appendTitle(conversation: Conversation, title: string): Promise<void> {
    await this.appendTitles([{ conversation, title }]);
  }

  /** `appendTitle` of each, in one statement. */
  async appendTitles(titles: { conversation: Conversation; title: string }[]): Promise<void> {
    await this.events.appendMany(
      titles.map(({ conversation, title }) => this.titleEvent(conversation, title)),
    );
  }

  private titleEvent(conversation: Conversation, title: string) {
    return {
      workspaceId: conversation.workspaceId,
      conversationId: conversation.id,
      event: { type: 'conversation_title' as const, created: this.clock.now().getTime(), title },
    };
  }

  /**
   * In the transaction that writes the message: tells the runtime about the agents to answer
   * (`newAgentMentions`, by default every agent the message mentions), with their versions as read
   * for the post, so that the work is queued with the message.
   */
  announce(
    draft: Pick<UserMessageDraft, 'caller' | 'prepared'>,
    written: WrittenMessage,
    newAgentMentions = agentMentions(written.message.mentions),
  ): Promise<void> {
    return this.inProcessEvents.emitInTransaction(MessagePosted, {
      caller: draft.caller,
      conversation: written.conversation,
      message: written.message,
      newAgentMentions,
      agents: draft.prepared.agents.map((details) => details.agent),
    });
  }

  private async checkUserMentions(caller: Caller, mentions: Mention[]): Promise<void> {
    const userSIds = mentions.flatMap((mention) => ('userId' in mention ? [mention.userId] : []));
    if (userSIds.length === 0) return;
    const { unknown } = await this.workspaces.resolveMembers(caller, { userSIds, emails: [] });
    if (unknown.length > 0)
      throw new InvalidRequestError(`mentions: not members of this workspace: ${unknown.join(', ')}.`);
  }
}
