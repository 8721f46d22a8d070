import { Module } from '@nestjs/common';
import { AgentsModule } from 'src/modules/agents/agents.api';
import { ConversationsModule } from 'src/modules/conversations/conversations.api';
import { IdentityModule } from 'src/modules/identity/identity.api';
import { WakeUpRepository } from 'src/modules/wakeups/application/ports/wakeup.repository';
import { ScheduledWakeUpsReader } from 'src/modules/wakeups/application/scheduled-wake-ups.reader';
import { WakeUpFiringService } from 'src/modules/wakeups/application/wakeup-firing.service';
import { WakeUpsService } from 'src/modules/wakeups/application/wakeups.service';
import { WakeUpsController } from 'src/modules/wakeups/http/wakeups.controller';
import { TypeormWakeUpRepository } from 'src/modules/wakeups/infrastructure/typeorm-wakeup.repository';
import { WakeUpWorker } from 'src/modules/wakeups/workers/wakeup.worker';

// ScheduledWakeUpsReader answers conversations' ScheduledWakeUps port (bound in src/composition).
@Module({
  imports: [IdentityModule, AgentsModule, ConversationsModule],
  controllers: [WakeUpsController],
  providers: [
    WakeUpsService,
    WakeUpFiringService,
    WakeUpWorker,
    { provide: WakeUpRepository, useClass: TypeormWakeUpRepository },
    ScheduledWakeUpsReader,
  ],
  exports: [WakeUpsService, ScheduledWakeUpsReader],
})
export class WakeUpsModule {}
