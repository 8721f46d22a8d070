import { Global, Module } from '@nestjs/common';
import { ConversationsModule } from 'src/modules/conversations/conversations.module';
import { FeedbackModule } from 'src/modules/feedback/feedback.module';
import { AgentStatistics } from 'src/modules/agents/application/ports/agent-statistics.read-model';
import { AgentStatisticsAdapter } from 'src/modules/agents/infrastructure/agent-statistics.adapter';

/**
 * Binds agents' AgentStatistics port above the contexts that answer it. Conversations and feedback
 * import AgentsModule, so AgentsModule cannot import them; this module can, and being global it
 * hands the port to AgentsModule without an import cycle or forwardRef.
 */
@Global()
@Module({
  imports: [ConversationsModule, FeedbackModule],
  providers: [{ provide: AgentStatistics, useClass: AgentStatisticsAdapter }],
  exports: [AgentStatistics],
})
export class AgentStatisticsModule {}
