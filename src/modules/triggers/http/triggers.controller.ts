import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { TriggerFiringsReader } from 'src/modules/triggers/application/trigger-firings.reader';
import { TriggersService } from 'src/modules/triggers/application/triggers.service';
import { TriggerFiringsQuery } from 'src/modules/triggers/http/dto/trigger-firings.dto';
import {
  AgentTriggersParams,
  CreateTriggersDto,
  DeleteTriggersDto,
  TriggerParams,
  UpdateTriggersDto,
} from 'src/modules/triggers/http/dto/triggers.dto';
import {
  TriggerConversationsResponse,
  TriggerFiringsPage,
  TriggersResponse,
} from 'src/modules/triggers/application/views/trigger.view';

@ApiTags('triggers')
@Controller('api/w/:wId/assistant/agent_configurations/:aId/triggers')
export class TriggersController {
  constructor(
    private readonly triggers: TriggersService,
    private readonly firings: TriggerFiringsReader,
  ) {}

  @Get()
  @Auth({ scopes: ['read:agent'] })
  @ApiOperation({
    summary: "List an agent's triggers (schedules and webhooks).",
    description: 'Any member who can read the agent, with `read:agent`.',
  })
  @ApiOkResponse({ type: TriggersResponse })
  @ApiErrors(404)
  async list(
    @CurrentCaller() caller: Caller,
    @Param() params: AgentTriggersParams,
  ): Promise<TriggersResponse> {
    return { triggers: await this.triggers.list(caller, params.aId) };
  }

  @Post()
  @HttpCode(200)
  // Its firings post conversations as the caller: a key that could not post cannot set them up.
  @Auth({ scopes: ['write:agent', 'write:conversation'] })
  @ApiOperation({
    summary: 'Create triggers of an agent, all or none; the caller becomes their editor.',
    description:
      "The agent's editors and workspace admins, with `write:agent` and `write:conversation` (its firings post as the caller). The whole batch is checked first (cron, time zone, spacing of at least 5 minutes, the per-agent limit): one bad trigger is a 400 naming it, and nothing is created.",
  })
  @ApiBody({
    type: CreateTriggersDto,
    examples: {
      schedule: {
        summary: 'Every weekday at 09:00 in Paris',
        value: {
          triggers: [
            {
              name: 'Morning digest',
              kind: 'schedule',
              customPrompt: 'Summarise the open incidents.',
              configuration: { cron: '0 9 * * 1-5', timezone: 'Europe/Paris' },
            },
          ],
        },
      },
    },
  })
  @ApiOkResponse({ type: TriggersResponse })
  @ApiErrors(400, 403, 404, 409)
  async create(
    @CurrentCaller() caller: Caller,
    @Param() params: AgentTriggersParams,
    @Body() body: CreateTriggersDto,
  ): Promise<TriggersResponse> {
    return { triggers: await this.triggers.create(caller, params.aId, body.triggers) };
  }

  @Patch()
  @Auth({ scopes: ['write:agent', 'write:conversation'] })
  @ApiOperation({
    summary:
      "Replace the settings of some of an agent's triggers, all or none; the caller becomes their editor.",
    description:
      "The agent's editors and workspace admins, with `write:agent` and `write:conversation` (its firings post as the caller). A trigger of another agent is a 404, and nothing changes.",
  })
  @ApiOkResponse({ type: TriggersResponse })
  @ApiErrors(400, 403, 404, 409)
  async update(
    @CurrentCaller() caller: Caller,
    @Param() params: AgentTriggersParams,
    @Body() body: UpdateTriggersDto,
  ): Promise<TriggersResponse> {
    return { triggers: await this.triggers.update(caller, params.aId, body.triggers) };
  }

  @Delete()
  @HttpCode(204)
  @Auth({ scopes: ['write:agent'] })
  @ApiOperation({
    summary: "Delete some of an agent's triggers, all or none.",
    description:
      "The agent's editors and workspace admins, with `write:agent`. A deleted schedule never fires again.",
  })
  @ApiNoContentResponse({ description: 'The triggers are deleted.' })
  @ApiErrors(400, 403, 404, 409)
  async remove(
    @CurrentCaller() caller: Caller,
    @Param() params: AgentTriggersParams,
    @Body() body: DeleteTriggersDto,
  ): Promise<void> {
    await this.triggers.remove(caller, params.aId, body.triggerIds);
  }

  @Get(':tId/conversations')
  @Auth({ scopes: ['read:agent', 'read:conversation'] })
  @ApiOperation({
    summary: 'List the conversations a trigger opened, newest first (its last 100 firings).',
    description:
      'Any member who can read the agent, with `read:agent` and `read:conversation`; only the conversations the caller can read are listed.',
  })
  @ApiOkResponse({ type: TriggerConversationsResponse })
  @ApiErrors(404)
  async conversations(
    @CurrentCaller() caller: Caller,
    @Param() params: TriggerParams,
  ): Promise<TriggerConversationsResponse> {
    return { conversations: await this.triggers.conversationsOf(caller, params.aId, params.tId) };
  }

  @Get(':tId/firings')
  @Auth({ scopes: ['read:agent'] })
  @ApiOperation({
    summary: "List a trigger's firings, newest first, failed ones with their reason.",
    description:
      'Any member who can read the agent, with `read:agent`. Paged: give `nextCursor` as `cursor` for older firings. A firing names its conversation only when the key has `read:conversation` and the caller can read it.',
  })
  @ApiOkResponse({ type: TriggerFiringsPage })
  @ApiErrors(400, 404)
  async listFirings(
    @CurrentCaller() caller: Caller,
    @Param() params: TriggerParams,
    @Query() query: TriggerFiringsQuery,
  ): Promise<TriggerFiringsPage> {
    return this.firings.page(caller, params.aId, params.tId, query);
  }
}
