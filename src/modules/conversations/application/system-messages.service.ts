import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { DomainError } from 'src/platform/errors/domain-error';
import { generateSId } from 'src/platform/ids/sid';
import { SpacesService } from 'src/modules/identity/identity.api';
import {
  MessageInput,
  MessageWriter,
  PreparedMessage,
  UserMessageDraft,
} from 'src/modules/conversations/application/message-writer.service';
import { ConversationRepository } from 'src/modules/conversations/application/ports/conversation.repository';
import {
  Conversation,
  accessibleSpaces,
  assertCanReadWith,
  isRestricted,
  refsByWorkspace,
} from 'src/modules/conversations/domain/conversation';
import { ConversationNotFound } from 'src/modules/conversations/domain/conversations.errors';
import { Mention, UserMessage } from 'src/modules/conversations/domain/message';

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

/** A conversation a background job opens on behalf of a member (a trigger's firing), with its first message. */
export interface OpenedConversationInput {
  onBehalfOf: Caller;
  title: string;
  triggerId: string;
  message: MessageInput;
}

/** What became of one opened conversation: opened, or refused by a check made before anything was written. */
export type OpenedConversationOutcome = { opened: Conversation } | { refused: DomainError };

/**
 * The batches background jobs write (wake-ups' messages, triggers' conversations), sharing their
 * look-ups.
 */
@Injectable()
export class SystemMessagesService {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly writer: MessageWriter,
    private readonly spaces: SpacesService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

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
      const found = await this.conversations.findByRefs(
        refsByWorkspace(
          inputs.map((input) => ({ workspaceId: input.onBehalfOf.workspaceId, id: input.conversationId })),
        ),
      );
      const conversations = new Map(found.map((conversation) => [conversation.id, conversation]));
      const busy = new Set<number>();
      if (options.skipBusy) {
        for (const { workspaceId, ids } of refsByWorkspace([...conversations.values()])) {
          const locked = new Set(await this.conversations.lockUnlessBusy(workspaceId, ids));
          for (const id of ids) if (!locked.has(id)) busy.add(id);
        }
      }
      const accessible = memoize(
        async (caller: Caller) => accessibleSpaces(await this.spaces.listAccessible(caller)),
        callerKey,
      );
      const prepared = memoize(
        ({
          caller,
          input,
        }: {
          caller: Caller;
          input: Omit<MessageInput, 'context'> & { authorId: number };
        }) => this.writer.prepare(caller, input, input.authorId),
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
          if (isRestricted(conversation)) assertCanReadWith(conversation, await accessible(caller));
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
        (await this.writer.write(drafts)).map((result, i) => [drafts[i], result] as const),
      );
      for (const [draft, result] of written) await this.writer.announce(draft, result);
      return outcomes.map((outcome) => {
        if (!('prepared' in outcome)) return outcome;
        const { conversation, message } = written.get(outcome)!;
        return { posted: message, conversation };
      });
    });
  }

  /**
   * Conversations background jobs open (trigger firings), each with its first message written by
   * `onBehalfOf`, whose rights check its mentions. Joins the caller's transaction; the runtime hears
   * of the messages after it commits. The checks are made once per member and mentions; the writes
   * are one statement per step for the batch (the conversations, ranks, messages) plus each
   * conversation's events. A refused conversation writes nothing; an error in a write fails the
   * whole transaction.
   */
  async openConversations(inputs: OpenedConversationInput[]): Promise<OpenedConversationOutcome[]> {
    return this.unitOfWork.run(async () => {
      const prepared = memoize(
        ({ caller, input }: { caller: Caller; input: MessageInput }) =>
          this.writer.prepare(caller, input, caller.userId),
        ({ caller, input }) => `${callerKey(caller)}|${JSON.stringify(input.mentions)}`,
      );
      const checked: (OpenedConversationOutcome | PreparedMessage)[] = [];
      for (const input of inputs) {
        try {
          checked.push(await prepared({ caller: input.onBehalfOf, input: input.message }));
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          checked.push({ refused: error });
        }
      }
      const accepted = inputs.flatMap((input, i) => {
        const check = checked[i];
        return 'render' in check ? [{ input, prepared: check, index: i }] : [];
      });
      const conversations = await this.conversations.createMany(
        accepted.map(({ input }) => ({
          sId: generateSId(),
          workspaceId: input.onBehalfOf.workspaceId,
          title: input.title.trim() || null,
          depth: 0,
          spaceId: null,
          requestedSpaceIds: [],
          forkedFrom: null,
          triggerId: input.triggerId,
        })),
      );
      await this.writer.appendTitles(
        conversations.flatMap((conversation) =>
          conversation.title ? [{ conversation, title: conversation.title }] : [],
        ),
      );
      const drafts: UserMessageDraft[] = accepted.map(({ input, prepared }, i) => ({
        caller: input.onBehalfOf,
        conversation: conversations[i],
        input: input.message,
        previous: null,
        authorId: input.onBehalfOf.userId,
        prepared,
      }));
      const written = await this.writer.write(drafts);
      const opened = new Map<number, Conversation>();
      for (const [i, { index }] of accepted.entries()) {
        await this.writer.announce(drafts[i], written[i]);
        opened.set(index, written[i].conversation);
      }
      return checked.map((check, i) => ('render' in check ? { opened: opened.get(i)! } : check));
    });
  }
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
