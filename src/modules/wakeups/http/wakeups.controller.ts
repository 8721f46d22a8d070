import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { ConversationParams } from 'src/platform/http/route-params';
import { WakeUpsService } from 'src/modules/wakeups/application/wakeups.service';
import { CreateWakeUpDto, WakeUpParams } from 'src/modules/wakeups/http/dto/wakeup.dto';
import {
  WakeUpResponse,
  WakeUpsResponse,
  renderWakeUp,
} from 'src/modules/wakeups/application/views/wake-up.view';

@ApiTags('wake-ups')
@Controller('api/w/:wId/assistant/conversations/:cId/wakeups')
export class WakeUpsController {
  constructor(private readonly wakeUps: WakeUpsService) {}

  @Post()
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({
    summary: 'Schedule a wake-up of an agent in the conversation (at most one scheduled at a time).',
    description:
      'Any member who can read the conversation, with `write:conversation`; they own the wake-up. One-shot (`fireAt`) or cron (5 fields, at least 5 minutes apart, `maxFires`); when it fires, a system message mentioning the agent starts a normal run.',
  })
  @ApiBody({
    type: CreateWakeUpDto,
    examples: {
      cron: {
        summary: 'Every weekday at 09:00 in Paris, ten times',
        value: {
          agentConfigurationId: 'Ag4tB7nM1q',
          scheduleConfig: { type: 'cron', cron: '0 9 * * 1-5', timezone: 'Europe/Paris' },
          reason: 'Post the open refund requests of the day.',
          maxFires: 10,
        },
      },
    },
  })
  @ApiOkResponse({ type: WakeUpResponse })
  @ApiErrors(400, 404, 409)
  async create(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Body() body: CreateWakeUpDto,
  ): Promise<WakeUpResponse> {
    return { wakeUp: renderWakeUp(await this.wakeUps.create(caller, params.cId, body)) };
  }

  @Get()
  @Auth({ scopes: ['read:conversation'] })
  @ApiOperation({
    summary: 'List the wake-ups of a conversation, of every status, oldest first (endpoint 9).',
    description: 'Any member who can read the conversation, with `read:conversation`.',
  })
  @ApiOkResponse({ type: WakeUpsResponse })
  @ApiErrors(404)
  async list(@CurrentCaller() caller: Caller, @Param() params: ConversationParams): Promise<WakeUpsResponse> {
    return { wakeUps: (await this.wakeUps.list(caller, params.cId)).map(renderWakeUp) };
  }

  @Delete(':wuId')
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({
    summary:
      'Cancel a wake-up (endpoint 8): its owner or a workspace admin; a terminal one comes back unchanged.',
    description: 'With `write:conversation`; another member gets 403, a wake-up of another conversation 404.',
  })
  @ApiOkResponse({ type: WakeUpResponse })
  @ApiErrors(404)
  async cancel(@CurrentCaller() caller: Caller, @Param() params: WakeUpParams): Promise<WakeUpResponse> {
    return { wakeUp: renderWakeUp(await this.wakeUps.cancel(caller, params.cId, params.wuId)) };
  }
}
