import { Module } from '@nestjs/common';
import { AgentsModule } from 'src/modules/agents/agents.module';
import { IdentityModule } from 'src/modules/identity/identity.module';
import { TriggerRepository } from 'src/modules/triggers/application/ports/trigger.repository';
import { TriggersService } from 'src/modules/triggers/application/triggers.service';
import { TriggersController } from 'src/modules/triggers/http/triggers.controller';
import { TypeormTriggerRepository } from 'src/modules/triggers/infrastructure/typeorm-trigger.repository';

@Module({
  imports: [IdentityModule, AgentsModule],
  controllers: [TriggersController],
  providers: [TriggersService, { provide: TriggerRepository, useClass: TypeormTriggerRepository }],
  exports: [TriggersService],
})
export class TriggersModule {}
