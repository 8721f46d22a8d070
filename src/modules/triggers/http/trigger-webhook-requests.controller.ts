import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { decodeCursor, encodeCursor } from 'src/platform/http/cursor';
import { TriggersService } from 'src/modules/triggers/application/triggers.service';
import { WebhookRequestsService } from 'src/modules/triggers/application/webhook-requests.service';
import { PageQuery } from 'src/platform/http/page-query';
import { TriggerParams } from 'src/modules/triggers/http/dto/triggers.dto';
import { WebhookRequestsResponse } from 'src/modules/triggers/application/views/webhook-source.view';

@ApiTags('triggers')
@Controller('api/w/:wId/assistant/agent_configurations/:aId/triggers')
export class TriggerWebhookRequestsController {
  constructor(
    private readonly triggers: TriggersService,
    private readonly requests: WebhookRequestsService,
  ) {}

  @Get(':tId/webhook_requests')
  @Auth({ scopes: ['read:agent'] })
  @ApiOperation({
    summary: "List what a webhook trigger's deliveries did, newest first, paged.",
    description:
      'Any member who can read the agent, with `read:agent`. Each delivery of its source is `workflow_start_succeeded` ' +
      '(with the conversation it opened), `workflow_start_failed`, `not_matched` (event or filter) or `rate_limited` ' +
      '(its `executionPerDayLimitOverride`, 42 a day by default). A trigger of another agent is 404. ' +
      '`conversationId` is set only when the key has `read:conversation` and the caller can read the conversation.',
  })
  @ApiOkResponse({ type: WebhookRequestsResponse })
  @ApiErrors(400, 404)
  async list(
    @CurrentCaller() caller: Caller,
    @Param() params: TriggerParams,
    @Query() query: PageQuery,
  ): Promise<WebhookRequestsResponse> {
    const trigger = await this.triggers.get(caller, params.aId, params.tId);
    const page = await this.requests.list(caller, trigger, {
      limit: query.limit ?? 50,
      beforeId: query.cursor === undefined ? null : decodeCursor(query.cursor),
    });
    return { requests: page.items, nextCursor: page.next === null ? null : encodeCursor(page.next) };
  }
}
