import { Injectable } from '@nestjs/common';
import { AgentMessagesService } from 'src/modules/conversations/application/agent-messages.service';
import { ConversationsConfig } from 'src/modules/conversations/conversations.config';
import type { AnswerTarget } from 'src/modules/runtime/application/ports/answer-sink';
import {
  ConversationHistory,
  HistoryEntry,
} from 'src/modules/runtime/application/ports/conversation-history';

/** A run's history, from the conversations that keep its messages and content fragments. */
@Injectable()
export class ConversationHistoryAdapter extends ConversationHistory {
  constructor(
    private readonly agentMessages: AgentMessagesService,
    private readonly config: ConversationsConfig,
  ) {
    super();
  }

  history(answer: AnswerTarget): Promise<HistoryEntry[]> {
    return this.agentMessages.history(answer);
  }

  imageBytesPerRequest(): number {
    return this.config.contentFragmentImageMaxBytes;
  }
}
