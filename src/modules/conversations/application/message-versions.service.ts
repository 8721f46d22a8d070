import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import type { ConversationEvent } from 'src/modules/conversations/application/views/conversation-event.view';
import { InProcessEvents } from 'src/platform/events/in-process-events';
import { DomainError, ForbiddenError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { generateSId } from 'src/platform/ids/sid';
import { MessagePosted } from 'src/modules/conversations/application/conversations.events';
import { AgentDetails, AgentsService } from 'src/modules/agents/agents.api';
import { AgentMessagesService } from 'src/modules/conversations/application/agent-messages.service';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import {
  MessageInput,
  MessageWriter,
  UserMessageDraft,
} from 'src/modules/conversations/application/message-writer.service';
import { renderAgentMessage } from 'src/modules/conversations/application/message-views.loader';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import { ConversationRepository } from 'src/modules/conversations/application/ports/conversation.repository';
import { MessageRepository } from 'src/modules/conversations/application/ports/message.repository';
import type { UserMessageView } from 'src/modules/conversations/application/views/message.view';
import type { Conversation } from 'src/modules/conversations/domain/conversation';
import { AgentMessage, UserMessage, agentMentions } from 'src/modules/conversations/domain/message';

/**
 * New versions of messages at their rank: an edited user message, whose answers are run again,
 * and a retried agent message. The list shows the latest version of each rank, so every answer's
 * latest version always answers the latest version of its user message.
 */
@Injectable()
export class MessageVersionsService {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messagesService: MessagesService,
    private readonly agentMessages: AgentMessagesService,
    private readonly conversationRepository: ConversationRepository,
    private readonly messages: MessageRepository,
    private readonly writer: MessageWriter,
    private readonly agents: AgentsService,
    private readonly events: ConversationEventLog<ConversationEvent>,
    private readonly inProcessEvents: InProcessEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * Only the author edits, only the latest version; the edit is version+1 at the same rank, with a
   * new sId. As in Dust, the edit is answered again: each answer to the previous version gets a
   * new version answering the edit, run again when the edit still mentions its agent (cancelled,
   * empty, when it does not); agents the edit adds answer at new ranks. Earlier versions stay.
   */
  async edit(
    caller: Caller,
    sId: string,
    messageSId: string,
    input: Pick<MessageInput, 'content' | 'mentions'>,
  ): Promise<UserMessageView> {
    const conversation = await this.conversations.get(caller, sId);
    const original = await this.messagesService.findMessage(caller, conversation, messageSId);
    if (original.type !== 'user_message') throw new InvalidRequestError('Only user messages can be edited.');
    if (original.userId !== caller.userId)
      throw new ForbiddenError('Only the author of a message can edit it.');
    await this.messagesService.assertMayWrite(caller, conversation);
    const prepared = await this.writer.prepare(caller, input, caller.userId);
    const draft: UserMessageDraft = {
      caller,
      conversation,
      input: { ...input, context: original.context },
      previous: original,
      authorId: caller.userId,
      prepared,
    };
    return this.unitOfWork.run(async () => {
      // Serialise edits of this conversation, then check that nobody edited the message first.
      await this.lockAndCheckLatest(conversation, original.rank, original.version, 'edited');
      const edited = await this.writer.writeOne(draft);
      const previousAnswers = await this.messages.answersTo(
        caller.workspaceId,
        conversation.id,
        original.rank,
      );
      await this.agentMessages.cancelRunning(conversation, previousAnswers);
      const mentioned = new Set(prepared.agents.map((details) => details.agent.sId));
      const dropped = previousAnswers.filter((answer) => !mentioned.has(answer.agentSId));
      // The agents the edit no longer mentions are described only for their (cancelled) versions' view.
      const droppedAgents =
        dropped.length === 0
          ? []
          : await this.agents.describe(
              caller,
              dropped.map((answer) => answer.agentSId),
            );
      const described = [...prepared.agents, ...droppedAgents];
      const versions: AgentMessage[] = [];
      for (const answer of previousAnswers) {
        const agent = described.find((details) => details.agent.sId === answer.agentSId);
        // Agents are archived, never deleted: every answer's agent is described.
        if (!agent) throw new Error(`The agent ${answer.agentSId} of an answer was not found.`);
        versions.push(
          await this.writeVersion(
            conversation,
            answer,
            edited.message,
            agent,
            mentioned.has(answer.agentSId),
          ),
        );
      }
      const answered = new Set(previousAnswers.map((answer) => answer.agentSId));
      await this.inProcessEvents.emitInTransaction(MessagePosted, {
        caller,
        conversation: edited.conversation,
        message: edited.message,
        newAgentMentions: agentMentions(edited.message.mentions).filter(
          (agentSId) => !answered.has(agentSId),
        ),
        agents: prepared.agents.map((details) => details.agent),
        rerun: versions.filter((version) => version.status === 'created'),
      });
      return edited.view;
    });
  }

  /**
   * A new version of a finished agent message at its rank (new sId, version+1), answering the
   * latest version of its user message, run again by the latest version of its agent. Anyone who
   * may post in the conversation may retry; a running message is 409, a user message 400.
   */
  async retry(caller: Caller, sId: string, messageSId: string): Promise<AgentMessage> {
    const conversation = await this.conversations.get(caller, sId);
    const message = await this.messagesService.findMessage(caller, conversation, messageSId);
    if (message.type !== 'agent_message') {
      throw new InvalidRequestError('Only agent messages can be retried.');
    }
    const [[details]] = await Promise.all([
      this.agents.resolveMentions(caller, [message.agentSId], 'message'),
      this.writer.assertMayRun(caller),
    ]);
    return this.unitOfWork.run(async () => {
      await this.lockAndCheckLatest(conversation, message.rank, message.version, 'retried');
      const [current] = await this.messages.findByIds(caller.workspaceId, [message.id]);
      if (current.type !== 'agent_message' || current.status === 'created') {
        throw new DomainError(
          'refused_in_current_state',
          'This agent message is still being generated: cancel it or wait for it to finish before retrying.',
        );
      }
      const [parentVersion] = await this.messages.findByIds(caller.workspaceId, [current.parentMessageId]);
      const parent = parentVersion
        ? await this.messages.findLatestAt(caller.workspaceId, conversation.id, parentVersion.rank)
        : null;
      if (parent?.type !== 'user_message') {
        throw new InvalidRequestError('The user message this agent message answers is gone.');
      }
      if (conversation.hasError) {
        await this.conversationRepository.update(caller.workspaceId, conversation.id, { hasError: false });
      }
      const version = await this.writeVersion(conversation, current, parent, details, true);
      await this.inProcessEvents.emitInTransaction(MessagePosted, {
        caller,
        conversation,
        message: parent,
        newAgentMentions: [],
        agents: [details.agent],
        rerun: [version],
      });
      return version;
    });
  }

  /** Holds the conversation's lock for the transaction; the message must still be its rank's latest version. */
  private async lockAndCheckLatest(
    conversation: Conversation,
    rank: number,
    version: number,
    verb: 'edited' | 'retried',
  ): Promise<void> {
    await this.conversationRepository.allocateRanks(conversation.workspaceId, conversation.id, 0);
    const latest = await this.messages.latestVersionAt(conversation.workspaceId, conversation.id, rank);
    if (latest !== version) {
      throw new InvalidRequestError(`Only the latest version of a message can be ${verb}.`);
    }
  }

  /**
   * The next version of `answer`, answering `parent`: to run by `agent`, or, when it must not run
   * (the edit no longer mentions it), cancelled and empty. Announced by `agent_message_new`.
   */
  private async writeVersion(
    conversation: Conversation,
    answer: AgentMessage,
    parent: UserMessage,
    agent: AgentDetails,
    run: boolean,
  ): Promise<AgentMessage> {
    const version = await this.messages.insertAgentMessage({
      type: 'agent_message',
      sId: generateSId(),
      workspaceId: conversation.workspaceId,
      conversationId: conversation.id,
      rank: answer.rank,
      version: answer.version + 1,
      parentMessageId: parent.id,
      agentSId: answer.agentSId,
      agentVersion: run ? agent.agent.version : answer.agentVersion,
      status: run ? 'created' : 'cancelled',
      content: '',
      error: null,
      completedAt: run ? null : this.clock.now(),
    });
    await this.events.append(conversation.workspaceId, conversation.id, {
      type: 'agent_message_new',
      created: version.createdAt.getTime(),
      configurationId: version.agentSId,
      messageId: version.sId,
      message: renderAgentMessage(version, parent.sId, agent.agent, []),
    });
    return version;
  }
}
