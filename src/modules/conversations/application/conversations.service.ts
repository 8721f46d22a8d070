import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { Clock } from 'src/platform/clock/clock';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { generateSId } from 'src/platform/ids/sid';
import { ApiKeysService, SpacesService } from 'src/modules/identity/identity.api';
import { ContentFragmentsService } from 'src/modules/conversations/application/content-fragments.service';
import { FragmentInput } from 'src/modules/conversations/domain/content-fragment';
import { MessageInput, MessageWriter } from 'src/modules/conversations/application/message-writer.service';
import type { ContentFragmentView } from 'src/modules/conversations/application/views/content-fragment.view';
import type { UserMessageView } from 'src/modules/conversations/application/views/message.view';
import {
  ConversationRead,
  ConversationRepository,
} from 'src/modules/conversations/application/ports/conversation.repository';
import {
  Conversation,
  NewConversation,
  TITLE_MAX,
  accessibleSpaces,
  assertCanReadWith,
  canReadWith,
  isRestricted,
  refsByWorkspace,
} from 'src/modules/conversations/domain/conversation';
import {
  ConversationAccessRestricted,
  ConversationNotFound,
} from 'src/modules/conversations/domain/conversations.errors';

/** A page of a list and the position the next page starts after (null on the last page). */
/** What other contexts may know of conversations, without importing this context's domain. */

export interface Page<T> {
  items: T[];
  next: number | null;
}

export const PAGE_MAX = 100;

/**
 * A new conversation: the fields of the domain's a client may give (`depth`, 0 by default;
 * `triggerId`, given by the trigger that opens it, never by a request), where it is, and what it
 * starts with.
 */
export type NewConversationInput = Partial<
  Omit<NewConversation, 'sId' | 'workspaceId' | 'title' | 'spaceId' | 'requestedSpaceIds' | 'forkedFrom'>
> & {
  title?: string;
  spaceId?: string;
  message?: MessageInput;
  contentFragments?: FragmentInput[];
  /** The public family answers once the first message's agents have answered. */
  blocking?: boolean;
};

/** Conversations: created, read under the access rule, listed and updated. */
@Injectable()
export class ConversationsService {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly writer: MessageWriter,
    private readonly fragments: ContentFragmentsService,
    private readonly spaces: SpacesService,
    private readonly apiKeys: ApiKeysService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * A conversation, with its content fragments and then its first message when given; they come
   * back in their wire form.
   */
  async create(
    caller: Caller,
    input: NewConversationInput,
  ): Promise<{
    conversation: Conversation;
    message: UserMessageView | null;
    contentFragments: ContentFragmentView[];
  }> {
    // `blocking` is the caller's to wait on; the rest are the domain's fields, stored as given.
    const {
      title,
      spaceId,
      message: first,
      contentFragments: fragments,
      blocking: _answerAwaited,
      ...settings
    } = input;
    const space = spaceId ? await this.spaces.findAccessible(caller, spaceId) : null;
    const prepared = first ? await this.writer.prepare(caller, first, caller.userId) : null;
    return this.unitOfWork.run(async () => {
      const conversation = await this.conversations.create({
        ...settings,
        sId: generateSId(),
        workspaceId: caller.workspaceId,
        title: title?.trim() || null,
        depth: settings.depth ?? 0,
        spaceId: space?.id ?? null,
        requestedSpaceIds: [],
        forkedFrom: null,
        triggerId: settings.triggerId ?? null,
      });
      await this.conversations.markRead(caller.workspaceId, conversation.id, caller.userId, this.clock.now());
      if (conversation.title) await this.writer.appendTitle(conversation, conversation.title);
      const contentFragments = await this.fragments.write(caller, conversation, fragments ?? []);
      if (!first || !prepared) return { conversation, message: null, contentFragments };
      const draft = { caller, conversation, input: first, previous: null, authorId: caller.userId, prepared };
      const written = await this.writer.writeOne(draft);
      await this.writer.announce(draft, written);
      return { conversation: written.conversation, message: written.view, contentFragments };
    });
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

  /**
   * Of these conversations of the caller's workspace (row ids), the sIds of those it may read, by
   * id: two queries whatever their number (the caller's spaces read once, when one is restricted).
   */
  async readableAmong(caller: Caller, ids: readonly number[]): Promise<Map<number, string>> {
    const unique = [...new Set(ids)];
    const found = unique.length === 0 ? [] : await this.conversations.findByIds(caller.workspaceId, unique);
    const spaces = found.some(isRestricted)
      ? accessibleSpaces(await this.spaces.listAccessible(caller))
      : null;
    return new Map(
      found
        .filter((conversation) => spaces === null || canReadWith(conversation, spaces))
        .map((conversation) => [conversation.id, conversation.sId]),
    );
  }

  /**
   * The caller's conversations that it may read, newest first, strictly older than `beforeId` (a
   * conversation id).
   */
  async list(
    caller: Caller,
    options: { limit: number; beforeId: number | null },
  ): Promise<Page<Conversation>> {
    const limit = Math.min(options.limit, PAGE_MAX);
    const rows = await this.conversations.listForUser(
      caller.workspaceId,
      caller.userId,
      accessibleSpaces(await this.spaces.listAccessible(caller)),
      options.beforeId,
      limit + 1,
    );
    const items = rows.slice(0, limit);
    return { items, next: rows.length > limit ? items[items.length - 1].id : null };
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
        await this.writer.appendTitle(updated, title);
      }
      if (input.read !== undefined) {
        await this.conversations.markRead(
          caller.workspaceId,
          conversation.id,
          caller.userId,
          input.read ? this.clock.now() : null,
        );
      }
      return updated;
    });
  }

  /** Readers must access every space the conversation requests, and its own space. */
  async assertCanRead(caller: Caller, conversation: Conversation): Promise<void> {
    if (!isRestricted(conversation)) return;
    assertCanReadWith(conversation, accessibleSpaces(await this.spaces.listAccessible(caller)));
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
        refsByWorkspace(
          grants.map(({ workspaceId, conversationId }) => ({ workspaceId, id: conversationId })),
        ),
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
      return accessible === undefined || canReadWith(check.conversation, accessibleSpaces(accessible));
    });
  }
}
