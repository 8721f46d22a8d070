import { Module } from '@nestjs/common';
import { AgentsModule } from 'src/modules/agents/agents.api';
import { ConversationsModule } from 'src/modules/conversations/conversations.api';
import { IdentityModule } from 'src/modules/identity/identity.api';
import { AgentSchedulesService } from 'src/modules/triggers/application/agent-schedules.service';
import { TriggerRepository } from 'src/modules/triggers/application/ports/trigger.repository';
import { WebhookRepository } from 'src/modules/triggers/application/ports/webhook.repository';
import { TriggerFiringService } from 'src/modules/triggers/application/trigger-firing.service';
import { TriggerFiringsReader } from 'src/modules/triggers/application/trigger-firings.reader';
import { TriggersService } from 'src/modules/triggers/application/triggers.service';
import { WebhookDeliveriesService } from 'src/modules/triggers/application/webhook-deliveries.service';
import { WebhookFiringService } from 'src/modules/triggers/application/webhook-firing.service';
import { WebhookRequestsService } from 'src/modules/triggers/application/webhook-requests.service';
import { WebhookSourcesService } from 'src/modules/triggers/application/webhook-sources.service';
import { TriggerWebhookRequestsController } from 'src/modules/triggers/http/trigger-webhook-requests.controller';
import { TriggersController } from 'src/modules/triggers/http/triggers.controller';
import { WebhookHooksController } from 'src/modules/triggers/http/webhook-hooks.controller';
import { WebhookSourceViewsController } from 'src/modules/triggers/http/webhook-source-views.controller';
import { WebhookSourcesController } from 'src/modules/triggers/http/webhook-sources.controller';
import { TypeormTriggerRepository } from 'src/modules/triggers/infrastructure/typeorm-trigger.repository';
import { TypeormWebhookRepository } from 'src/modules/triggers/infrastructure/typeorm-webhook.repository';
import { TriggerWorker } from 'src/modules/triggers/workers/trigger.worker';
import { WebhookDeliveryWorker } from 'src/modules/triggers/workers/webhook-delivery.worker';

@Module({
  imports: [IdentityModule, AgentsModule, ConversationsModule],
  controllers: [
    TriggersController,
    TriggerWebhookRequestsController,
    WebhookSourcesController,
    WebhookSourceViewsController,
    WebhookHooksController,
  ],
  providers: [
    TriggersService,
    AgentSchedulesService,
    TriggerFiringService,
    TriggerFiringsReader,
    TriggerWorker,
    WebhookSourcesService,
    WebhookDeliveriesService,
    WebhookFiringService,
    WebhookRequestsService,
    WebhookDeliveryWorker,
    { provide: TriggerRepository, useClass: TypeormTriggerRepository },
    { provide: WebhookRepository, useClass: TypeormWebhookRepository },
  ],
  exports: [TriggersService, AgentSchedulesService],
})
export class TriggersModule {}
