import type { AnswerTarget } from 'src/modules/runtime/application/ports/answer-sink';

/** A user message of a run's history, with what its client asked of the runs answering it. */
export interface HistoryUserMessage {
  type: 'user_message';
  id: number;
  workspaceId: number;
  /** Its author. */
  userId: number;
  content: string;
  context: {
    /** Client-side MCP servers whose tools its runs get (its author's own only). */
    clientSideMCPServerIds?: string[] | null;
    /** Tool server views whose tools its runs get besides their agent's. */
    selectedMCPServerViewIds?: string[] | null;
    /** Its runs call their tools without waiting for approval: its poster approves them. */
    skipToolsValidation?: boolean;
  };
}

/** An agent message of a run's history: the model reads the answers that succeeded. */
export interface HistoryAgentMessage {
  type: 'agent_message';
  status: 'created' | 'succeeded' | 'failed' | 'cancelled';
  content: string;
}

/** A content fragment of a run's history, with its text (within the conversation's budget). */
export interface HistoryFragment {
  type: 'content_fragment';
  sId: string;
  title: string;
  contentType: string;
  /** The file it shows; null for inline text. */
  fileSId: string | null;
  text: string;
}

/** A slot of a conversation as a run's history gives them, in rank order. */
export type HistoryEntry = HistoryUserMessage | HistoryAgentMessage | HistoryFragment;

/**
 * Port: the conversation as the model of a run reads it. Conversations keep its messages and
 * content fragments, and answer it (bound in src/composition).
 */
export abstract class ConversationHistory {
  /**
   * The latest version of every message before the answer's own slot, and the content fragments
   * among them with their text: the model's view of the conversation.
   */
  abstract history(answer: AnswerTarget): Promise<HistoryEntry[]>;

  /** The bytes of fragment images one model request may show (the conversations' setting). */
  abstract imageBytesPerRequest(): number;
}
