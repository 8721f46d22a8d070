import type { AgentDetails } from 'src/modules/agents/agents.api';
import type { MessagePosted } from 'src/modules/conversations/application/conversations.events';
import type { RunAction } from 'src/modules/runtime/domain/run-action';

/** A conversation as a run holds it: the ids its records and events name it by. */
export interface RunConversation {
  id: number;
  sId: string;
  workspaceId: number;
}

/** What a `generation_tokens` chunk is: the answer, or the model's reasoning when a provider streams it. */
export type TokensClassification = 'tokens' | 'chain_of_thought';

/** The agent message a run writes, as the runtime reads it. */
export interface RunAgentMessage {
  type: 'agent_message';
  id: number;
  sId: string;
  /** Its slot in the conversation: the run's history is what comes before. */
  rank: number;
  /** The user message it answers. */
  parentMessageId: number;
  agentSId: string;
  agentVersion: number;
  status: 'created' | 'succeeded' | 'failed' | 'cancelled';
  /** What it holds so far: a resumed run continues it. */
  content: string;
}

/** The agent message an answer writes to, and its conversation. */
export interface AnswerTarget {
  conversation: RunConversation;
  message: RunAgentMessage;
}

/** An agent message being generated, with the conversation it answers in and its agent. */
export interface RunAnswer extends AnswerTarget {
  agent: AgentDetails['agent'];
}

/** How an answer ends: once per message. */
export interface AnswerOutcome {
  status: 'succeeded' | 'failed' | 'cancelled';
  content: string;
  error: { code: string; message: string } | null;
}

/** A conversation as the tool calls of an answer change it: by ids. */
export interface ConversationIds {
  id: number;
  workspaceId: number;
}

/** The conversation and agent message a call belongs to, as its events name them. */
export interface ActionTarget {
  conversation: ConversationIds;
  message: { sId: string; agentSId: string };
}

/** A posted message read back by ids: what a `MessagePosted` carries of it. */
export interface PostedMessage {
  conversation: MessagePosted['conversation'];
  message: MessagePosted['message'];
  /** The agent messages it brings written, to run again. */
  rerun: NonNullable<MessagePosted['rerun']>;
}

/**
 * Port: where the runtime writes its answers. Conversations keep the agent messages, their streams
 * and what tool calls change in a conversation, and answer it (bound in src/composition). Each
 * write joins the caller's transaction, as conversations' writes do.
 */
export abstract class AnswerSink {
  /**
   * The agent messages answering a posted message: one per newly mentioned agent, created at the
   * next ranks and announced, and those it brings written that still run.
   */
  abstract start(posted: MessagePosted): Promise<RunAnswer[]>;

  /**
   * Streams `text` (answer or reasoning) and adds the answer's to the message; resolves once
   * written: false when the message was cancelled meanwhile. `urgent` writes without waiting.
   */
  abstract appendTokens(
    target: AnswerTarget,
    text: string,
    classification?: TokensClassification,
    urgent?: boolean,
  ): Promise<boolean>;

  /**
   * Records the outcome and its events, exactly once per message; false when another outcome came
   * first. The run's listener hears of it in the same transaction (`AgentMessageFinished`).
   */
  abstract finish(
    answer: AnswerTarget & { agent?: RunAnswer['agent']; runId?: number },
    outcome: AnswerOutcome,
  ): Promise<boolean>;

  /** Agent messages by row id, each with its conversation (background work holds ids). */
  abstract findAnswers(workspaceId: number, messageIds: number[]): Promise<AnswerTarget[]>;

  /**
   * A posted message read back by ids (a queued run request holds ids): null when its conversation
   * or message is gone.
   */
  abstract postedMessage(
    workspaceId: number,
    conversationId: number,
    messageId: number,
    rerunIds: number[],
  ): Promise<PostedMessage | null>;

  /** Whether `userId` must act in the conversation: one of its answers waits for their approval. */
  abstract requireAction(conversation: ConversationIds, userId: number, required: boolean): Promise<void>;

  /** An answer brought in the data of these restricted spaces: the conversation's readers must access them. */
  abstract requestSpaces(conversation: ConversationIds, spaceSIds: readonly string[]): Promise<void>;

  /**
   * Puts a recorded tool call on its message's stream, with its request for approval when it waits
   * for one (naming the answer's agent as the one asking).
   */
  abstract announceCall(answer: RunAnswer, action: RunAction): Promise<void>;

  /** Puts a settled tool call on its message's stream: succeeded, or failed or denied. */
  abstract announceSettled(target: ActionTarget, action: RunAction): Promise<void>;
}
