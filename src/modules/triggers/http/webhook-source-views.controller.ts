import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { SpaceParams } from 'src/platform/http/route-params';
import { WebhookSourcesService } from 'src/modules/triggers/application/webhook-sources.service';
import {
  ShareWebhookSourceDto,
  WebhookSourceViewParams,
} from 'src/modules/triggers/http/dto/webhook-sources.dto';
import {
  SpaceWebhookSourceViewsResponse,
  SuccessResponse,
  WebhookSourceViewResponse,
} from 'src/modules/triggers/application/views/webhook-source.view';

@ApiTags('triggers')
@Controller('api/w/:wId/spaces/:spaceId/webhook_source_views')
export class WebhookSourceViewsController {
  constructor(private readonly sources: WebhookSourcesService) {}

  @Get()
  @Auth({ scopes: ['read:agent'] })
  @ApiOperation({
    summary: 'List the webhook sources shared to a space (its webhook source views).',
    description:
      'Any member who can access the space, with `read:agent`: a trigger of theirs may listen through these views. ' +
      'Another space, or one the caller cannot access, is 404 `space_not_found`.',
  })
  @ApiOkResponse({ type: SpaceWebhookSourceViewsResponse })
  @ApiErrors(404)
  async list(
    @CurrentCaller() caller: Caller,
    @Param() params: SpaceParams,
  ): Promise<SpaceWebhookSourceViewsResponse> {
    return { success: true, webhookSourceViews: await this.sources.listSpaceViews(caller, params.spaceId) };
  }

  @Post()
  @HttpCode(200)
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Share a webhook source to a space.',
    description:
      'Workspace admins, with `admin`. A source already shared to the space is 409; an unknown source is 400 naming `webhookSourceId`.',
  })
  @ApiBody({
    type: ShareWebhookSourceDto,
    examples: { share: { summary: 'Share a source', value: { webhookSourceId: 'whs_Hk3mQ8xN2p' } } },
  })
  @ApiOkResponse({ type: WebhookSourceViewResponse })
  @ApiErrors(400, 404, 409)
  async share(
    @CurrentCaller() caller: Caller,
    @Param() params: SpaceParams,
    @Body() body: ShareWebhookSourceDto,
  ): Promise<WebhookSourceViewResponse> {
    return {
      success: true,
      webhookSourceView: await this.sources.share(caller, params.spaceId, body.webhookSourceId),
    };
  }

  @Delete(':webhookSourceViewId')
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Stop sharing a webhook source to a space.',
    description:
      'Workspace admins, with `admin`. A view that triggers still listen through is 409: delete them first.',
  })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiErrors(404, 409)
  async unshare(
    @CurrentCaller() caller: Caller,
    @Param() params: WebhookSourceViewParams,
  ): Promise<SuccessResponse> {
    await this.sources.unshare(caller, params.spaceId, params.webhookSourceViewId);
    return { success: true };
  }
}
