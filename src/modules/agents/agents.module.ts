import { Module } from '@nestjs/common';
import { IdentityModule } from 'src/modules/identity/identity.api';
import { AgentCommandsService } from 'src/modules/agents/application/agent-commands.service';
import { AgentDetailsLoader } from 'src/modules/agents/application/agent-details.loader';
import { AgentQueriesService } from 'src/modules/agents/application/agent-queries.service';
import { AgentReferencesService } from 'src/modules/agents/application/agent-references.service';
import { AgentsService } from 'src/modules/agents/application/agents.service';
import { CatalogueService } from 'src/modules/agents/application/catalogue.service';
import { RunToolsetsService } from 'src/modules/agents/application/run-toolsets.service';
import { EditorRemovalService } from 'src/modules/agents/application/editor-removal.service';
import { GlobalAgentsService } from 'src/modules/agents/application/global-agents.service';
import { InternalServersService } from 'src/modules/agents/application/internal-servers.service';
import { MentionsService } from 'src/modules/agents/application/mentions.service';
import { ToolServerSyncService } from 'src/modules/agents/application/tool-server-sync.service';
import { AgentRepository } from 'src/modules/agents/application/ports/agent.repository';
import { CatalogueRepository } from 'src/modules/agents/application/ports/catalogue.repository';
import { AgentConfigurationsController } from 'src/modules/agents/http/agent-configurations.controller';
import { CatalogueController } from 'src/modules/agents/http/catalogue.controller';
import { MentionsController } from 'src/modules/agents/http/mentions.controller';
import { McpServerViewsController } from 'src/modules/agents/http/mcp-server-views.controller';
import { TypeormAgentRepository } from 'src/modules/agents/infrastructure/typeorm-agent.repository';
import { TypeormCatalogueRepository } from 'src/modules/agents/infrastructure/typeorm-catalogue.repository';

/** AgentStatistics, which the details loader needs, is answered by contexts that depend on this one (src/composition). */
@Module({
  imports: [IdentityModule],
  controllers: [
    AgentConfigurationsController,
    CatalogueController,
    McpServerViewsController,
    MentionsController,
  ],
  providers: [
    AgentsService,
    MentionsService,
    AgentCommandsService,
    AgentQueriesService,
    AgentReferencesService,
    AgentDetailsLoader,
    GlobalAgentsService,
    EditorRemovalService,
    CatalogueService,
    RunToolsetsService,
    InternalServersService,
    ToolServerSyncService,
    { provide: AgentRepository, useClass: TypeormAgentRepository },
    { provide: CatalogueRepository, useClass: TypeormCatalogueRepository },
  ],
  exports: [AgentsService, MentionsService, InternalServersService, CatalogueService, RunToolsetsService],
})
export class AgentsModule {}
