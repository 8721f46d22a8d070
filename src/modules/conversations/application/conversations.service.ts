import { Injectable, Logger } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { AccessChanges } from 'src/platform/events/access-changes';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import { InProcessEvents, MessagePosted } from 'src/platform/events/in-process-events';
import { DomainError, ForbiddenError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { generateSId } from 'src/platform/ids/sid';
import { AgentDetails, AgentsService } from 'src/modules/agents/application/agents.service';
import { ApiKeysService } from 'src/modules/identity/application/api-keys.service';
import { SpacesService } from 'src/modules/identity/application/spaces.service';
import { WorkspacesService } from 'src/modules/identity/application/workspaces.service';
import type { Space } from 'src/modules/identity/domain/space';
import {
  ConversationRead,
  ConversationRepository,
} from 'src/modules/conversations/application/ports/conversation.repository';
import { MessageRepository } from 'src/modules/conversations/application/ports/message.repository';
import { MessageViews, UserMessageView } from 'src/modules/conversations/application/message-views';
import { Conversation, TITLE_MAX, deriveTitle } from 'src/modules/conversations/domain/conversation';
import {
  ConversationAccessRestricted,
  ConversationNotFound,
  MessageNotFound,
} from 'src/modules/conversations/domain/conversations.errors';
import {
  Mention,
  Message,
  MessageContext,
  Reaction,
  UserMessage,
  agentMentions,
} from 'src/modules/conversations/domain/message';
import { canonicalEmoji, checkNewReaction, parseEmoji } from 'src/modules/conversations/domain/reaction';

export interface MessageInput {
  content: string;
  mentions: Mention[];
  context: Omit<MessageContext, 'origin'> & { origin?: MessageContext['origin'] };
}

/** A message the service posts itself, on behalf of a member (see `postSystemMessages`). */
export interface SystemMessageInput {
  onBehalfOf: Caller;
  /** The conversation's row id (background jobs hold ids). */
  conversationId: number;
  content: string;
  mentions: Mention[];
  authorId: number;
}

/**
 * What became of one system message: posted, refused by a check made before anything was written
 * (the conversation is given when the caller could read it), or, when asked to skip busy
 * conversations, left unwritten because another transaction holds its conversation.
 */
export type SystemMessageOutcome =
  | { posted: UserMessage; conversation: Conversation }
  | { refused: DomainError; conversation: Conversation | null }
  | { busy: true; conversation: null };

/** What writing a user message needs, loaded before the write (and shared by a batch). */
interface PreparedMessage {
  agents: AgentDetails[];
  render: (message: UserMessage) => UserMessageView;
}

/** A user message about to be written: a new slot, or the next version of `previous`. */
interface UserMessageDraft {
  caller: Caller;
  conversation: Conversation;
  input: MessageInput;
  previous: UserMessage | null;
  authorId: number;
  prepared: PreparedMessage;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const PAGE_MAX = 100;

@Injectable()
export class ConversationsService {
  private readonly logger = new Logger(ConversationsService.name);

  constructor(
    private readonly conversations: ConversationRepository,
    private readonly messages: MessageRepository,
    private readonly events: ConversationEventLog,
    private readonly agents: AgentsService,
    private readonly spaces: SpacesService,
    private readonly workspaces: WorkspacesService,
    private readonly unitOfWork: UnitOfWork,
    private readonly views: MessageViews,
    private readonly inProcessEvents: InProcessEvents,
    private readonly apiKeys: ApiKeysService,
    private readonly accessChanges: AccessChanges,
  ) {}

  async create(
    caller: Caller,
    input: { title?: string; spaceId?: string; message?: MessageInput },
  ): Promise<{ conversation: Conversation; message: UserMessage | null }> {
    const space = input.spaceId ? await this.spaces.findAccessible(caller, input.spaceId) : null;
    const posted: MessagePosted[] = [];
    const result = await this.unitOfWork.run(async () => {
      let conversation = await this.conversations.create({
        sId: generateSId(),
        workspaceId: caller.workspaceId,
        title: input.title?.trim() || null,
        depth: 0,
        spaceId: space?.id ?? null,
        requestedSpaceIds: [],
        forkedFrom: null,
      });
      await this.conversations.markRead(caller.workspaceId, conversation.id, caller.userId, new Date());
      if (conversation.title) await this.appendTitle(conversation, conversation.title);
      let message: UserMessage | null = null;
      if (input.message) {
        ({ conversation, message } = await this.writeUserMessage(caller, conversation, input.message, null));
        posted.push({ caller, conversation, message, newAgentMentions: agentMentions(message.mentions) });
      }
      return { conversation, message };
    });
    this.announce(posted);
    return result;
  }

  /** A conversation of the caller's workspace that the caller may read. */
  async get(caller: Caller, sId: string): Promise<Conversation> {
    const conversation = await this.conversations.find(caller.workspaceId, sId);
    if (!conversation) throw new ConversationNotFound(sId);
    await this.assertCanRead(caller, conversation);
    return conversation;
  }

  /** Whether the caller can read this conversation of its workspace (false when there is none). */
  async canRead(caller: Caller, sId: string): Promise<boolean> {
    const conversation = await this.conversations.find(caller.workspaceId, sId);
    if (!conversation) return false;
    try {
      await this.assertCanRead(caller, conversation);
      return true;
    } catch (error) {
      if (error instanceof ConversationAccessRestricted) return false;
      throw error;
    }
  }

  /** `get` with the caller's participation and whether forks exist, read together. */
  async getForReader(caller: Caller, sId: string): Promise<ConversationRead> {
    const read = await this.conversations.findForReader(caller.workspaceId, sId, caller.userId);
    if (!read) throw new ConversationNotFound(sId);
    await this.assertCanRead(caller, read.conversation);
    return read;
  }

  /** By row id (background jobs hold ids), with the same access check as `get`. */
  async getById(caller: Caller, id: number): Promise<Conversation> {
    const [conversation] = await this.conversations.findByIds(caller.workspaceId, [id]);
    if (!conversation) throw new ConversationNotFound(String(id));
    await this.assertCanRead(caller, conversation);
    return conversation;
  }

  async list(caller: Caller, options: { limit: number; cursor?: string }): Promise<Page<Conversation>> {
    const beforeId = options.cursor === undefined ? null : decodeCursor(options.cursor);
    const limit = Math.min(options.limit, PAGE_MAX);
    const rows = await this.conversations.listForUser(caller.workspaceId, caller.userId, beforeId, limit + 1);
    const items = rows.slice(0, limit);
    return { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1].id) : null };
  }

  async update(
    caller: Caller,
    sId: string,
    input: { title?: string; read?: boolean },
  ): Promise<Conversation> {
    const conversation = await this.get(caller, sId);
    return this.unitOfWork.run(async () => {
      let updated = conversation;
      if (input.title !== undefined) {
        const title = input.title.trim();
        if (title.length === 0 || title.length > TITLE_MAX) {
          throw new InvalidRequestError(`title: must be 1 to ${TITLE_MAX} characters.`);
        }
        updated = await this.conversations.update(caller.workspaceId, conversation.id, { title });
        await this.appendTitle(updated, title);
      }
      if (input.read !== undefined) {
        await this.conversations.markRead(
          caller.workspaceId,
          conversation.id,
          caller.userId,
          input.read ? new Date() : null,
        );
      }
      return updated;
    });
  }

  async postMessage(caller: Caller, sId: string, input: MessageInput): Promise<UserMessage> {
    const conversation = await this.get(caller, sId);
    const { conversation: updated, message } = await this.unitOfWork.run(() =>
      this.writeUserMessage(caller, conversation, input, null),
    );
    this.announce([
      { caller, conversation: updated, message, newAgentMentions: agentMentions(message.mentions) },
    ]);
    return message;
  }

  /** Only the author edits, only the latest version; the edit is version+1 at the same rank, with a new sId. */
  async editMessage(
    caller: Caller,
    sId: string,
    messageSId: string,
    input: Pick<MessageInput, 'content' | 'mentions'>,
  ): Promise<UserMessage> {
    const conversation = await this.get(caller, sId);
    const original = await this.findMessage(caller, conversation, messageSId);
    if (original.type !== 'user_message') throw new InvalidRequestError('Only user messages can be edited.');
    if (original.userId !== caller.userId)
      throw new ForbiddenError('Only the author of a message can edit it.');
    const { conversation: updated, message } = await this.unitOfWork.run(async () => {
      // Serialise edits of this conversation, then check that nobody edited the message first.
      await this.conversations.allocateRanks(caller.workspaceId, conversation.id, 0);
      const latest = await this.messages.latestVersionAt(caller.workspaceId, conversation.id, original.rank);
      if (latest !== original.version) {
        throw new InvalidRequestError('Only the latest version of a message can be edited.');
      }
      return this.writeUserMessage(caller, conversation, { ...input, context: original.context }, original);
    });
    const before = new Set(agentMentions(original.mentions));
    this.announce([
      {
        caller,
        conversation: updated,
        message,
        newAgentMentions: agentMentions(message.mentions).filter((agentSId) => !before.has(agentSId)),
      },
    ]);
    return message;
  }

  async findMessage(caller: Caller, conversation: Conversation, messageSId: string): Promise<Message> {
    const message = await this.messages.findBySId(caller.workspaceId, conversation.id, messageSId);
    if (!message) throw new MessageNotFound(messageSId);
    return message;
  }

  async listMessages(
    caller: Caller,
    sId: string,
    options: { limit: number; cursor?: string },
  ): Promise<{ conversation: Conversation; page: Page<Message>; reactions: Reaction[] }> {
    // The reader's form of `get`: the same checks, on a prepared statement rather than the query builder.
    const { conversation } = await this.getForReader(caller, sId);
    const afterRank = options.cursor === undefined ? -1 : decodeCursor(options.cursor);
    const limit = Math.min(options.limit, PAGE_MAX);
    const { messages: rows, reactions } = await this.messages.listLatest(
      caller.workspaceId,
      conversation.id,
      afterRank,
      limit + 1,
    );
    const items = rows.slice(0, limit);
    return {
      conversation,
      page: { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1].rank) : null },
      reactions,
    };
  }

  /**
   * Adds or removes the caller's reaction. A new emoji on a message counts against the cap, checked
   * under a per-message lock so that concurrent reactions cannot pass it together.
   */
  async react(
    caller: Caller,
    sId: string,
    messageSId: string,
    emojiInput: string,
    add: boolean,
  ): Promise<Message> {
    // Removal also takes a string that is not an emoji: reactions stored before the rule can go.
    const emoji = add ? parseEmoji(emojiInput) : (canonicalEmoji(emojiInput) ?? emojiInput);
    const conversation = await this.get(caller, sId);
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

  /**
   * A new conversation holding the latest versions of the messages up to `sourceMessageSId`, one
   * level deeper. Files of the copied messages are copied after the commit (`fileCopyStatus`).
   */
  async fork(caller: Caller, sId: string, sourceMessageSId: string): Promise<Conversation> {
    const parent = await this.get(caller, sId);
    const source = await this.findMessage(caller, parent, sourceMessageSId);
    const child = await this.unitOfWork.run(async () => {
      const copied = await this.messages.listLatestUpTo(caller.workspaceId, parent.id, source.rank);
      const created = await this.conversations.create({
        sId: generateSId(),
        workspaceId: caller.workspaceId,
        title: parent.title,
        depth: parent.depth + 1,
        spaceId: parent.spaceId,
        requestedSpaceIds: parent.requestedSpaceIds,
        forkedFrom: {
          parentConversationId: parent.id,
          sourceMessageId: source.id,
          branchedAt: new Date(),
          forkedByUserId: caller.userId,
          fileCopyStatus: 'pending',
        },
      });
      await this.copyMessages(created, copied);
      await this.conversations.markRead(caller.workspaceId, created.id, caller.userId, new Date());
      if (created.title) await this.appendTitle(created, created.title);
      this.unitOfWork.afterCommit(() => this.copyFilesOfFork(created));
      return created;
    });
    return child;
  }

  private async copyMessages(target: Conversation, copied: Message[]): Promise<void> {
    if (copied.length === 0) return;
    const first = await this.conversations.allocateRanks(target.workspaceId, target.id, copied.length);
    const newIds = new Map<number, number>();
    for (const [index, message] of copied.entries()) {
      const common = {
        sId: generateSId(),
        workspaceId: target.workspaceId,
        conversationId: target.id,
        rank: first + index,
        version: 0,
      };
      if (message.type === 'user_message') {
        const { id: _id, createdAt: _createdAt, ...rest } = message;
        newIds.set(message.id, (await this.messages.insertUserMessage({ ...rest, ...common })).id);
      } else {
        const { id: _id, createdAt: _createdAt, ...rest } = message;
        const parentMessageId = newIds.get(message.parentMessageId) ?? message.parentMessageId;
        // A generation still running in the parent is not continued in the fork.
        const status = rest.status === 'created' ? 'cancelled' : rest.status;
        await this.messages.insertAgentMessage({
          ...rest,
          ...common,
          parentMessageId,
          status,
          runnerId: null,
        });
      }
    }
  }

  /** Messages carry no file attachments yet, so the copy completes at once; the status still moves through `pending`. */
  private copyFilesOfFork(child: Conversation): void {
    this.conversations.setFileCopyStatus(child.workspaceId, child.id, 'done').catch((error: unknown) => {
      this.logger.error(
        { err: error, conversationId: child.sId },
        'Could not finish the file copy of a fork',
      );
    });
  }

  /** Readers must access every space the conversation's agents need, and its own space. */
  async assertCanRead(caller: Caller, conversation: Conversation): Promise<void> {
    await this.assertCanReadWith(conversation, () => this.spaces.listAccessible(caller));
  }

  /** `assertCanRead` with the caller's accessible spaces loaded by `accessibleSpaces`, only when needed. */
  private async assertCanReadWith(
    conversation: Conversation,
    accessibleSpaces: () => Promise<Space[]>,
  ): Promise<void> {
    if (!isRestricted(conversation)) return;
    if (!canReadWith(conversation, await accessibleSpaces())) throw new ConversationAccessRestricted();
  }

  /**
   * Whether each key may still read its conversation (`get`'s checks, on the key, membership and
   * spaces as they are now): for open event streams, many at once, in three queries whatever
   * their number.
   */
  async stillReadable(
    grants: readonly { keyId: string; workspaceId: number; conversationId: number }[],
  ): Promise<boolean[]> {
    const [callers, conversations] = await Promise.all([
      this.apiKeys.currentCallers(grants.map((grant) => grant.keyId)),
      this.conversations.findByRefs(
        [
          ...idsByWorkspace(
            grants.map(({ workspaceId, conversationId }) => ({ workspaceId, id: conversationId })),
          ),
        ].map(([workspaceId, ids]) => ({ workspaceId, ids })),
      ),
    ]);
    const byId = new Map(conversations.map((conversation) => [conversation.id, conversation]));
    const checks = grants.map((grant) => {
      const caller = callers.get(grant.keyId);
      const conversation = byId.get(grant.conversationId);
      const usable =
        caller?.workspaceId === grant.workspaceId &&
        caller.hasScope('read:conversation') &&
        conversation?.workspaceId === grant.workspaceId;
      return usable ? { caller, conversation } : null;
    });
    const restricted = checks.filter((check) => check !== null && isRestricted(check.conversation));
    const spaces = await this.spaces.listAccessibleToMembers(
      restricted.map((check) => ({ workspaceId: check!.caller.workspaceId, userId: check!.caller.userId })),
    );
    const spacesOf = new Map(restricted.map((check, i) => [check, spaces[i]]));
    return checks.map((check) => {
      if (check === null) return false;
      const accessible = spacesOf.get(check);
      return accessible === undefined || canReadWith(check.conversation, accessible);
    });
  }

  /**
   * Messages the service posts itself (wake-up firings): each written by `authorId` with origin
   * `wakeup`, its mentions checked with the rights of `onBehalfOf`. Joins the caller's transaction;
   * the runtime hears of them after that transaction commits. Look-ups (conversations, readable
   * spaces, agents, author) are made once for the batch, so each message costs only its writes. A
   * message refused by a check writes nothing; an error in a write fails the whole transaction.
   * With `skipBusy`, messages whose conversation another transaction holds are left out rather
   * than waited for, so one held conversation does not hold up the batch.
   */
  async postSystemMessages(
    inputs: SystemMessageInput[],
    options: { skipBusy?: boolean } = {},
  ): Promise<SystemMessageOutcome[]> {
    const context = {
      username: 'wake-up',
      timezone: 'UTC',
      origin: 'wakeup' as const,
      fullName: 'Wake-up',
      email: null,
      profilePictureUrl: null,
    };
    return this.unitOfWork.run(async () => {
      const conversations = await this.findAcrossWorkspaces(
        inputs.map((input) => ({ workspaceId: input.onBehalfOf.workspaceId, id: input.conversationId })),
      );
      const busy = new Set<number>();
      if (options.skipBusy) {
        for (const [workspaceId, ids] of idsByWorkspace([...conversations.values()])) {
          const locked = new Set(await this.conversations.lockUnlessBusy(workspaceId, ids));
          for (const id of ids) if (!locked.has(id)) busy.add(id);
        }
      }
      const accessible = memoize((caller: Caller) => this.spaces.listAccessible(caller), callerKey);
      const prepared = memoize(
        ({
          caller,
          input,
        }: {
          caller: Caller;
          input: Omit<MessageInput, 'context'> & { authorId: number };
        }) => this.prepareUserMessage(caller, input, input.authorId),
        ({ caller, input }) => `${callerKey(caller)}|${input.authorId}|${JSON.stringify(input.mentions)}`,
      );
      // Checks first: a refused message writes nothing, the others are written together.
      const outcomes: (SystemMessageOutcome | UserMessageDraft)[] = [];
      for (const input of inputs) {
        const caller = input.onBehalfOf;
        const conversation = conversations.get(input.conversationId);
        if (!conversation) {
          outcomes.push({
            refused: new ConversationNotFound(String(input.conversationId)),
            conversation: null,
          });
          continue;
        }
        if (busy.has(conversation.id)) {
          outcomes.push({ busy: true, conversation: null });
          continue;
        }
        try {
          await this.assertCanReadWith(conversation, () => accessible(caller));
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          outcomes.push({ refused: error, conversation: null });
          continue;
        }
        try {
          outcomes.push({
            caller,
            conversation,
            input: { content: input.content, mentions: input.mentions, context },
            previous: null,
            authorId: input.authorId,
            prepared: await prepared({ caller, input }),
          });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          outcomes.push({ refused: error, conversation });
        }
      }
      const drafts = outcomes.filter((outcome): outcome is UserMessageDraft => 'prepared' in outcome);
      const written = new Map(
        (await this.writeUserMessages(drafts)).map((result, i) => [drafts[i], result] as const),
      );
      const posted: MessagePosted[] = [...written.entries()].map(([draft, { conversation, message }]) => ({
        caller: draft.caller,
        conversation,
        message,
        newAgentMentions: agentMentions(message.mentions),
      }));
      this.announce(posted);
      return outcomes.map((outcome) => {
        if (!('prepared' in outcome)) return outcome;
        const { conversation, message } = written.get(outcome)!;
        return { posted: message, conversation };
      });
    });
  }

  /** Writes a user message (a new slot, or the next version of `previous`) and its events; in a transaction. */
  private async writeUserMessage(
    caller: Caller,
    conversation: Conversation,
    input: MessageInput,
    previous: UserMessage | null,
  ): Promise<{ conversation: Conversation; message: UserMessage }> {
    const prepared = await this.prepareUserMessage(caller, input, caller.userId);
    const [written] = await this.writeUserMessages([
      { caller, conversation, input, previous, authorId: caller.userId, prepared },
    ]);
    return written;
  }

  /**
   * Writes user messages and their events, in the order given, with one statement per step
   * whatever their number (ranks and conversation changes, the messages); in a transaction.
   * Messages of one conversation all start from the state `conversation` of its first draft.
   */
  private async writeUserMessages(
    drafts: UserMessageDraft[],
  ): Promise<{ conversation: Conversation; message: UserMessage }[]> {
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
    const firstRanks = await this.conversations.reserveRanks(reservations);
    for (const reservation of reservations) {
      // Members lacking a newly requested space lose access: announced before this message's
      // events, so their open streams hold them back until they are re-checked.
      const before = byConversation.get(reservation.id)![0].conversation;
      if (reservation.requestedSpaceIds.length > before.requestedSpaceIds.length) {
        await this.accessChanges.announce({ kind: 'conversation_changed', conversationId: reservation.id });
      }
    }
    const nextRank = new Map(firstRanks);
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
    const updated = await this.findAcrossWorkspaces(reservations);
    const titled = new Set<number>();
    const written = drafts.map((draft, i) => ({ draft, message: messages[i] }));
    for (const { draft, message } of written) {
      const { caller, conversation, authorId, prepared } = draft;
      if (authorId === caller.userId) {
        await this.conversations.markRead(caller.workspaceId, conversation.id, caller.userId, new Date());
      }
      await this.events.append(caller.workspaceId, conversation.id, {
        type: 'user_message_new',
        created: message.createdAt.getTime(),
        messageId: message.sId,
        message: prepared.render(message),
      });
      const after = updated.get(conversation.id)!;
      if (conversation.title === null && after.title && !titled.has(conversation.id)) {
        titled.add(conversation.id);
        await this.appendTitle(after, after.title);
      }
    }
    return written.map(({ draft, message }) => ({
      conversation: updated.get(draft.conversation.id)!,
      message,
    }));
  }

  /** Checks the mentions (usable agents, members) and loads what rendering the message needs. */
  private async prepareUserMessage(
    caller: Caller,
    input: Pick<MessageInput, 'mentions'>,
    authorId: number,
  ): Promise<PreparedMessage> {
    const agents = await this.agents.resolveMentions(caller, agentMentions(input.mentions));
    await this.checkUserMentions(caller, input.mentions);
    const render = await this.views.prepareNewUserMessage(caller, {
      userId: authorId,
      mentions: input.mentions,
    });
    return { agents, render };
  }

  private async checkUserMentions(caller: Caller, mentions: Mention[]): Promise<void> {
    const userSIds = mentions.flatMap((mention) => ('userId' in mention ? [mention.userId] : []));
    if (userSIds.length === 0) return;
    const { unknown } = await this.workspaces.resolveMembers(caller, { userSIds, emails: [] });
    if (unknown.length > 0)
      throw new InvalidRequestError(`mentions: not members of this workspace: ${unknown.join(', ')}.`);
  }

  private async appendTitle(conversation: Conversation, title: string): Promise<void> {
    await this.events.append(conversation.workspaceId, conversation.id, {
      type: 'conversation_title',
      created: Date.now(),
      title,
    });
  }

  /** After commit: tell the runtime about mentions to answer. A failure there never fails the post. */
  private announce(posted: MessagePosted[]): void {
    for (const post of posted) this.inProcessEvents.emitAfterCommit('conversation.message_posted', post);
  }

  /** Conversations of several workspaces by row id, one query per workspace. */
  private async findAcrossWorkspaces(
    refs: { workspaceId: number; id: number }[],
  ): Promise<Map<number, Conversation>> {
    const found = new Map<number, Conversation>();
    for (const [workspaceId, ids] of idsByWorkspace(refs)) {
      for (const conversation of await this.conversations.findByIds(workspaceId, ids)) {
        found.set(conversation.id, conversation);
      }
    }
    return found;
  }
}

function encodeCursor(value: number): string {
  return Buffer.from(String(value)).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const value = Number(Buffer.from(cursor, 'base64url').toString());
  if (!Number.isSafeInteger(value) || value < -1 || encodeCursor(value) !== cursor) {
    throw new InvalidRequestError('cursor: not a cursor this API returned.');
  }
  return value;
}

/** Distinct row ids grouped by workspace, since every query is scoped by one. */
function idsByWorkspace(refs: { workspaceId: number; id: number }[]): Map<number, number[]> {
  const grouped = new Map<number, Set<number>>();
  for (const { workspaceId, id } of refs) {
    grouped.set(workspaceId, (grouped.get(workspaceId) ?? new Set<number>()).add(id));
  }
  return new Map([...grouped].map(([workspaceId, ids]) => [workspaceId, [...ids]]));
}

/** Callers with the same key see the same conversations and agents. */
function callerKey(caller: Caller): string {
  return `${caller.workspaceId}:${caller.userId}:${caller.role}`;
}

/** One call per key; a rejected call is remembered too (the same inputs fail the same way). */
function memoize<A, R>(
  load: (argument: A) => Promise<R>,
  key: (argument: A) => string,
): (argument: A) => Promise<R> {
  const cache = new Map<string, Promise<R>>();
  return (argument) => {
    const k = key(argument);
    let result = cache.get(k);
    if (!result) {
      result = load(argument);
      cache.set(k, result);
    }
    return result;
  };
}

/** A conversation in a space, or one whose agents need spaces, is not readable by every member. */
function isRestricted(conversation: Conversation): boolean {
  return conversation.requestedSpaceIds.length > 0 || conversation.spaceId !== null;
}

/** Readers must access every space the conversation's agents need, and its own space. */
function canReadWith(conversation: Conversation, accessible: Space[]): boolean {
  const sIds = new Set(accessible.map((space) => space.sId));
  const ids = new Set(accessible.map((space) => space.id));
  return (
    conversation.requestedSpaceIds.every((spaceSId) => sIds.has(spaceSId)) &&
    (conversation.spaceId === null || ids.has(conversation.spaceId))
  );
}
