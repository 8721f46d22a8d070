import { Injectable } from '@nestjs/common';
import { AgentMessagesService, ConversationsConfig } from 'src/modules/conversations/conversations.api';
import type { AnswerTarget } from 'src/modules/runtime/runtime.api';
import { ConversationHistory, HistoryEntry } from 'src/modules/runtime/runtime.api';

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
