import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { WorkspaceParams } from 'src/platform/http/route-params';
import { WebhookSourcesService } from 'src/modules/triggers/application/webhook-sources.service';
import {
  CreateWebhookSourceDto,
  UpdateWebhookSourceDto,
  WebhookSourceParams,
} from 'src/modules/triggers/http/dto/webhook-sources.dto';
import {
  SuccessResponse,
  WebhookSourceResponse,
  WebhookSourceViewsResponse,
  WebhookSourcesResponse,
} from 'src/modules/triggers/application/views/webhook-source.view';

const ADMINS = 'Workspace admins, with a key of the `admin` scope.';

@ApiTags('triggers')
@Controller('api/w/:wId/webhook_sources')
export class WebhookSourcesController {
  constructor(private readonly sources: WebhookSourcesService) {}

  @Get()
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: 'List the webhook sources of the workspace with the spaces they are shared to.',
    description: `${ADMINS} Secrets are redacted. Dust's shape: \`{ success, webhookSourcesWithViews }\`.`,
  })
  @ApiOkResponse({ type: WebhookSourcesResponse })
  @ApiErrors(404)
  async list(
    @CurrentCaller() caller: Caller,
    @Param() params: WorkspaceParams,
  ): Promise<WebhookSourcesResponse> {
    return { success: true, webhookSourcesWithViews: await this.sources.list(caller, params.wId) };
  }

  @Post()
  @HttpCode(201)
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Create a webhook source; its signing secret is answered this once.',
    description:
      `${ADMINS} The secret is the one given, or one generated here and shown only in this answer. ` +
      '`provider: "github"` takes GitHub\'s headers (`X-Hub-Signature-256`, `X-GitHub-Event`, `X-GitHub-Delivery`); ' +
      'any other sender names its own. `includeGlobal` also shares it to the global space. A name already used is 409.',
  })
  @ApiBody({
    type: CreateWebhookSourceDto,
    examples: {
      github: {
        summary: 'A GitHub repository',
        value: { name: 'GitHub: acme/api', provider: 'github', includeGlobal: true },
      },
      generic: {
        summary: 'Another sender, with a timestamp',
        value: {
          name: 'Billing events',
          secret: 'a-secret-the-sender-already-has',
          signatureHeader: 'X-Billing-Signature',
          timestampHeader: 'X-Billing-Timestamp',
          timestampToleranceSeconds: 300,
          eventHeader: 'X-Billing-Event',
          deliveryHeader: 'X-Billing-Delivery',
        },
      },
    },
  })
  @ApiCreatedResponse({ type: WebhookSourceResponse })
  @ApiErrors(400, 404, 409)
  async create(
    @CurrentCaller() caller: Caller,
    @Param() params: WorkspaceParams,
    @Body() body: CreateWebhookSourceDto,
  ): Promise<WebhookSourceResponse> {
    return { success: true, webhookSource: await this.sources.create(caller, params.wId, body) };
  }

  @Get(':webhookSourceId')
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Read a webhook source with the spaces it is shared to.',
    description: `${ADMINS} The secret is redacted; a source of another workspace is 404.`,
  })
  @ApiOkResponse({ type: WebhookSourceResponse })
  @ApiErrors(404)
  async get(
    @CurrentCaller() caller: Caller,
    @Param() params: WebhookSourceParams,
  ): Promise<WebhookSourceResponse> {
    return {
      success: true,
      webhookSource: await this.sources.get(caller, params.wId, params.webhookSourceId),
    };
  }

  @Patch(':webhookSourceId')
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Rename a webhook source or change the headers it reads.',
    description: `${ADMINS} The secret never changes: create another source to change it.`,
  })
  @ApiBody({
    type: UpdateWebhookSourceDto,
    examples: { rename: { summary: 'A new name', value: { name: 'GitHub: acme/web' } } },
  })
  @ApiOkResponse({ type: WebhookSourceResponse })
  @ApiErrors(400, 404, 409)
  async update(
    @CurrentCaller() caller: Caller,
    @Param() params: WebhookSourceParams,
    @Body() body: UpdateWebhookSourceDto,
  ): Promise<WebhookSourceResponse> {
    return {
      success: true,
      webhookSource: await this.sources.update(caller, params.wId, params.webhookSourceId, body),
    };
  }

  @Delete(':webhookSourceId')
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Delete a webhook source, its views and its recorded deliveries.',
    description: `${ADMINS} A source that triggers still listen to is 409: delete them first.`,
  })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiErrors(404, 409)
  async remove(
    @CurrentCaller() caller: Caller,
    @Param() params: WebhookSourceParams,
  ): Promise<SuccessResponse> {
    await this.sources.remove(caller, params.webhookSourceId);
    return { success: true };
  }

  @Get(':webhookSourceId/views')
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: 'List the views of a webhook source: the spaces it is shared to.',
    description: `${ADMINS} Dust's shape: \`{ success, views }\`.`,
  })
  @ApiOkResponse({ type: WebhookSourceViewsResponse })
  @ApiErrors(404)
  async views(
    @CurrentCaller() caller: Caller,
    @Param() params: WebhookSourceParams,
  ): Promise<WebhookSourceViewsResponse> {
    return { success: true, views: await this.sources.viewsOfSource(caller, params.webhookSourceId) };
  }
}
