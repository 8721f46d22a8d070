import { Module } from '@nestjs/common';
import { IdentityModule } from 'src/modules/identity/identity.module';
import { AgentsService } from 'src/modules/agents/application/agents.service';
import { CatalogueService } from 'src/modules/agents/application/catalogue.service';
import { AgentRepository } from 'src/modules/agents/application/ports/agent.repository';
import { CatalogueRepository } from 'src/modules/agents/application/ports/catalogue.repository';
import { AgentConfigurationsController } from 'src/modules/agents/http/agent-configurations.controller';
import { CatalogueController } from 'src/modules/agents/http/catalogue.controller';
import { TypeormAgentRepository } from 'src/modules/agents/infrastructure/typeorm-agent.repository';
import { TypeormCatalogueRepository } from 'src/modules/agents/infrastructure/typeorm-catalogue.repository';

@Module({
  imports: [IdentityModule],
  controllers: [AgentConfigurationsController, CatalogueController],
  providers: [
    AgentsService,
    CatalogueService,
    { provide: AgentRepository, useClass: TypeormAgentRepository },
    { provide: CatalogueRepository, useClass: TypeormCatalogueRepository },
  ],
  exports: [AgentsService],
})
export class AgentsModule {}
