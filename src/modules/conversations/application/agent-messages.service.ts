import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import type {
  ConversationEvent,
  TokensClassification,
} from 'src/modules/conversations/application/views/conversation-event.view';
import { InProcessEvents } from 'src/platform/events/in-process-events';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { generateSId } from 'src/platform/ids/sid';
import type { AgentDetails } from 'src/modules/agents/agents.api';
import {
  AgentMessageCancelled,
  AgentMessageFinished,
  MessagePosted,
} from 'src/modules/conversations/application/conversations.events';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { ConversationsConfig } from 'src/modules/conversations/conversations.config';
import { GenerationTokensWriter } from 'src/modules/conversations/application/generation-tokens.writer';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import { renderAgentMessage } from 'src/modules/conversations/application/message-views.loader';
import { AnswerActions } from 'src/modules/conversations/application/ports/answer-actions';
import { ContentFragmentRepository } from 'src/modules/conversations/application/ports/content-fragment.repository';
import { ConversationRepository } from 'src/modules/conversations/application/ports/conversation.repository';
import {
  AgentMessageOutcome,
  MessageRepository,
} from 'src/modules/conversations/application/ports/message.repository';
import { ContentFragmentText, fitToBudget } from 'src/modules/conversations/domain/content-fragment';
import type { Conversation } from 'src/modules/conversations/domain/conversation';
import type { AgentMessage, Message, UserMessage } from 'src/modules/conversations/domain/message';

/** A slot of a conversation as a run's history gives them: a message, or a content fragment with its text. */
export type ConversationMessage = Message | ContentFragmentText;

/** An agent message being generated, with the conversation it answers in and its agent. */
export interface AgentAnswer {
  conversation: Conversation;
  message: AgentMessage;
  agent: AgentDetails['agent'];
}

/** The agent message an answer writes to, and its conversation. */
export type AnswerTarget = Pick<AgentAnswer, 'conversation' | 'message'>;

/**
 * What writing to an answer reads of its target: the ids its rows and events name it by (the
 * runtime, which writes answers, holds no more of them).
 */
export interface AnswerRef {
  conversation: Pick<Conversation, 'id' | 'sId' | 'workspaceId'>;
  message: Pick<AgentMessage, 'id' | 'sId' | 'agentSId' | 'parentMessageId' | 'rank'>;
}

/** Agent messages: created at the next ranks, filled while generating, finished once (by the runtime's runs). */
@Injectable()
export class AgentMessagesService {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messagesService: MessagesService,
    private readonly conversationRepository: ConversationRepository,
    private readonly messages: MessageRepository,
    private readonly actions: AnswerActions,
    private readonly fragments: ContentFragmentRepository,
    private readonly config: ConversationsConfig,
    private readonly events: ConversationEventLog<ConversationEvent>,
    private readonly unitOfWork: UnitOfWork,
    private readonly inProcessEvents: InProcessEvents,
    private readonly clock: Clock,
    private readonly tokens: GenerationTokensWriter,
  ) {}

  /**
   * One agent message per newly mentioned agent, at the next ranks, each announced by
   * `agent_message_new`: the agents are those the post read, so starting reads none again. Joins
   * the caller's transaction, where the runtime records their runs.
   */
  async start(posted: MessagePosted): Promise<AgentAnswer[]> {
    const { caller, conversation, message } = posted;
    const agents = posted.newAgentMentions.flatMap((sId) => {
      const agent = posted.agents.find((candidate) => candidate.sId === sId);
      return agent && agent.status === 'active' ? [agent] : [];
    });
    const rerun = await this.stillRunning(posted);
    if (agents.length === 0) return rerun;
    return this.unitOfWork.run(async () => {
      const first = await this.conversationRepository.allocateRanks(
        caller.workspaceId,
        conversation.id,
        agents.length,
      );
      // Edited while it waited for its turn: the edit answers in its place (its ranks stay unused).
      const latest = await this.messages.latestVersionAt(caller.workspaceId, conversation.id, message.rank);
      if (latest !== message.version) return rerun;
      const answers: AgentAnswer[] = [...rerun];
      for (const [index, agent] of agents.entries()) {
        const created = await this.messages.insertAgentMessage({
          type: 'agent_message',
          sId: generateSId(),
          workspaceId: caller.workspaceId,
          conversationId: conversation.id,
          rank: first + index,
          version: 0,
          parentMessageId: message.id,
          agentSId: agent.sId,
          agentVersion: agent.version,
          status: 'created',
          content: '',
          error: null,
          completedAt: null,
        });
        // Rendered from what is in hand: the conversation's lock is held here, so no further query.
        const view = renderAgentMessage(created, message.sId, agent, []);
        await this.events.append(caller.workspaceId, conversation.id, {
          type: 'agent_message_new',
          created: created.createdAt.getTime(),
          configurationId: agent.sId,
          messageId: created.sId,
          message: view,
        });
        answers.push({ conversation, message: created, agent });
      }
      return answers;
    });
  }

  /** The agent messages a post brought written (`rerun`) that nobody cancelled meanwhile. */
  private async stillRunning(posted: MessagePosted): Promise<AgentAnswer[]> {
    if (!posted.rerun?.length) return [];
    const { caller, conversation } = posted;
    const current = await this.messages.findByIds(
      caller.workspaceId,
      posted.rerun.map((message) => message.id),
    );
    return current.flatMap((message) => {
      const agent =
        message.type === 'agent_message' && message.status === 'created'
          ? posted.agents.find((candidate) => candidate.sId === message.agentSId)
          : undefined;
      return agent ? [{ conversation, message: message as AgentMessage, agent }] : [];
    });
  }

  /**
   * The latest version of every message before the run's own slot, and the content fragments among
   * them with their text (within the configured budget): the model's view of the conversation.
   */
  async history({ conversation, message }: AnswerRef): Promise<ConversationMessage[]> {
    const { workspaceId } = conversation;
    const [messages, fragments] = await this.unitOfWork.all([
      () => this.messages.listLatestUpTo(workspaceId, conversation.id, message.rank - 1),
      () => this.fragments.listTextsUpTo(workspaceId, conversation.id, message.rank - 1),
    ]);
    if (fragments.length === 0) return messages;
    const fitted = fitToBudget(fragments, this.config.contentFragmentBudgetBytes);
    return [...messages, ...fitted].sort((a, b) => a.rank - b.rank);
  }

  /**
   * Streams `text` (answer or reasoning, per `classification`) and adds the answer's to the
   * message's content, through writes shared with other answers; resolves once written: false
   * when the run was cancelled meanwhile. `urgent` (a run's first chunk) writes without waiting.
   */
  appendTokens(
    target: AnswerRef,
    text: string,
    classification: TokensClassification = 'tokens',
    urgent = false,
  ): Promise<boolean> {
    return this.tokens.append(target, text, classification, urgent);
  }

  /**
   * Records the outcome and its events, exactly once per message; false when another outcome came
   * first. Its run hears of it first, in the transaction; then the conversation stream gets
   * `agent_message_done` (or `agent_generation_cancelled`), and the message's own stream
   * `agent_message_success` with the final message, or `agent_error`.
   */
  finish(
    run: AnswerRef & { agent?: AgentAnswer['agent']; runId?: number },
    outcome: AgentMessageOutcome,
  ): Promise<boolean> {
    const { conversation, message } = run;
    return this.unitOfWork.run(async () => {
      await this.events.lockForAppend(conversation.id);
      if (!(await this.messages.complete(conversation.workspaceId, message.id, outcome))) return false;
      await this.inProcessEvents.emitInTransaction(AgentMessageFinished, {
        workspaceId: conversation.workspaceId,
        conversationId: conversation.id,
        message: { id: message.id, sId: message.sId, agentSId: message.agentSId },
        status: outcome.status,
      });
      if (outcome.status === 'failed') {
        await this.conversationRepository.update(conversation.workspaceId, conversation.id, {
          hasError: true,
        });
      }
      const common = {
        created: this.clock.now().getTime(),
        configurationId: message.agentSId,
        messageId: message.sId,
      };
      if (outcome.status === 'cancelled') {
        await this.events.append(conversation.workspaceId, conversation.id, {
          type: 'agent_generation_cancelled',
          ...common,
        });
      } else {
        const done: ConversationEvent = {
          type: 'agent_message_done',
          ...common,
          conversationId: conversation.sId,
          status: outcome.status === 'succeeded' ? 'success' : 'error',
        };
        // Both events in one statement, the conversation stream's before the message stream's.
        await this.events.appendMany(
          [done, await this.outcomeEvent(run, outcome, common)].map((event) => ({
            workspaceId: conversation.workspaceId,
            conversationId: conversation.id,
            event,
          })),
        );
      }
      return true;
    });
  }

  /** The message stream's outcome: `agent_message_success` with the final message, or `agent_error`. */
  private async outcomeEvent(
    run: AnswerRef & { agent?: AgentAnswer['agent']; runId?: number },
    outcome: AgentMessageOutcome,
    common: { created: number; configurationId: string; messageId: string },
  ): Promise<ConversationEvent> {
    const { conversation, message } = run;
    // The run that reached the outcome; none when the message ends without one (recovery).
    const runIds = run.runId === undefined ? [] : [String(run.runId)];
    if (outcome.status !== 'succeeded') {
      const error = outcome.error ?? { code: 'agent_run_error', message: 'The agent could not answer.' };
      return {
        type: 'agent_error',
        ...common,
        error: { code: error.code, message: error.message, metadata: null },
        runIds,
      };
    }
    const [messages, actions] = await this.unitOfWork.all([
      () => this.messages.findByIds(conversation.workspaceId, [message.parentMessageId, message.id]),
      () => this.actions.listForMessages(conversation.workspaceId, [message.id]),
    ]);
    const parent = messages.find((candidate) => candidate.id === message.parentMessageId);
    const finished = messages.find((candidate) => candidate.id === message.id) as AgentMessage;
    // Only a run, which holds its agent, succeeds (cancellations and interruptions fail or cancel).
    const agent = run.agent as AgentAnswer['agent'];
    return {
      type: 'agent_message_success',
      ...common,
      message: renderAgentMessage(finished, parent?.sId ?? '', agent, actions),
      runIds,
    };
  }

  /** Any participant with write access may cancel; cancelling a finished message changes nothing. */
  async cancel(caller: Caller, conversationSId: string, messageSId: string): Promise<AgentMessage> {
    const conversation = await this.conversations.get(caller, conversationSId);
    const message = await this.messagesService.findMessage(caller, conversation, messageSId);
    if (message.type !== 'agent_message')
      throw new InvalidRequestError('Only agent messages can be cancelled.');
    if (message.status === 'created') await this.cancelRunning(conversation, [message]);
    const [latest] = await this.messages.findByIds(caller.workspaceId, [message.id]);
    return latest as AgentMessage;
  }

  /**
   * Cancels these agent messages if they still run, keeping what they generated, and stops the
   * process generating each once committed. Joins the caller's transaction.
   */
  async cancelRunning(conversation: Conversation, running: AgentMessage[]): Promise<void> {
    if (running.length === 0) return;
    const current = await this.messages.findByIds(
      conversation.workspaceId,
      running.map((message) => message.id),
    );
    for (const message of current) {
      if (message.type !== 'agent_message' || message.status !== 'created') continue;
      const cancelled = await this.finish(
        { conversation, message },
        { status: 'cancelled', content: message.content, error: null },
      );
      if (cancelled) this.inProcessEvents.emitAfterCommit(AgentMessageCancelled, { messageId: message.id });
    }
  }

  /**
   * A posted message read back by ids (queued work holds ids): its conversation, the user message,
   * and those of `rerunIds` that are agent messages; null when the conversation or message is gone.
   */
  async postedMessage(
    workspaceId: number,
    conversationId: number,
    messageId: number,
    rerunIds: number[],
  ): Promise<{ conversation: Conversation; message: UserMessage; rerun: AgentMessage[] } | null> {
    const [[conversation], messages] = await this.unitOfWork.all([
      () => this.conversationRepository.findByIds(workspaceId, [conversationId]),
      () => this.messages.findByIds(workspaceId, [messageId, ...rerunIds]),
    ]);
    const message = messages.find((found) => found.id === messageId);
    if (!conversation || message?.type !== 'user_message' || message.conversationId !== conversationId)
      return null;
    const rerun = messages.filter(
      (found): found is AgentMessage =>
        found.type === 'agent_message' && found.conversationId === conversationId,
    );
    return { conversation, message, rerun };
  }

  /** Agent messages by row id, each with its conversation (background work holds ids). */
  async findAnswers(workspaceId: number, messageIds: number[]): Promise<AnswerTarget[]> {
    const messages = (await this.messages.findByIds(workspaceId, messageIds)).filter(
      (message): message is AgentMessage => message.type === 'agent_message',
    );
    const conversations = await this.conversationRepository.findByIds(workspaceId, [
      ...new Set(messages.map((message) => message.conversationId)),
    ]);
    const byId = new Map(conversations.map((conversation) => [conversation.id, conversation]));
    return messages.flatMap((message) => {
      const conversation = byId.get(message.conversationId);
      return conversation ? [{ conversation, message }] : [];
    });
  }
}
