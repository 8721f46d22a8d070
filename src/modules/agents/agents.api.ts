/**
 * What other contexts use of agents: the one file of it they import (docs/architecture.md,
 * the dependency rules). It re-exports only what they use, so it adds no import cycle.
 */
export { AgentsConfig } from 'src/modules/agents/agents.config';
export type { OpenAiSettings } from 'src/modules/agents/agents.config';
export { AgentsModule } from 'src/modules/agents/agents.module';
export type { AgentDetails } from 'src/modules/agents/application/agent-details.loader';
export { AgentArchived } from 'src/modules/agents/application/agents.events';
export { AgentsService } from 'src/modules/agents/application/agents.service';
export { InternalServersService } from 'src/modules/agents/application/internal-servers.service';
export { lightAgentConfiguration } from 'src/modules/agents/application/light-agent-configuration';
export { AgentStatistics } from 'src/modules/agents/application/ports/agent-statistics.read-model';
export type {
  AgentUsage,
  FeedbackCounts,
} from 'src/modules/agents/application/ports/agent-statistics.read-model';
export { ConversationParticipants } from 'src/modules/agents/application/ports/conversation-participants.port';
export { RunToolsetsService } from 'src/modules/agents/application/run-toolsets.service';
export type { RunToolServer } from 'src/modules/agents/application/run-toolsets.service';
export { LightAgentConfigurationView } from 'src/modules/agents/application/views/light-agent-configuration.view';
export type { AgentVersion } from 'src/modules/agents/domain/agent-configuration';
