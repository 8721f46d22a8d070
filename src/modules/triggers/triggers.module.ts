import { Module } from '@nestjs/common';
import { AgentsModule } from 'src/modules/agents/agents.module';
import { ConversationsModule } from 'src/modules/conversations/conversations.module';
import { IdentityModule } from 'src/modules/identity/identity.module';
import { TriggerRepository } from 'src/modules/triggers/application/ports/trigger.repository';
import { TriggerFiringService } from 'src/modules/triggers/application/trigger-firing.service';
import { TriggerFiringsReader } from 'src/modules/triggers/application/trigger-firings.reader';
import { TriggersService } from 'src/modules/triggers/application/triggers.service';
import { TriggersController } from 'src/modules/triggers/http/triggers.controller';
import { TypeormTriggerRepository } from 'src/modules/triggers/infrastructure/typeorm-trigger.repository';
import { TriggerWorker } from 'src/modules/triggers/workers/trigger.worker';

@Module({
  imports: [IdentityModule, AgentsModule, ConversationsModule],
  controllers: [TriggersController],
  providers: [
    TriggersService,
    TriggerFiringService,
    TriggerFiringsReader,
    TriggerWorker,
    { provide: TriggerRepository, useClass: TypeormTriggerRepository },
  ],
  exports: [TriggersService],
})
export class TriggersModule {}
