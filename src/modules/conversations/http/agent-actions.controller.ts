import { Body, Get, Param } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { WorkspaceController } from 'src/platform/http/api-families';
import { ApiErrors } from 'src/platform/http/api-errors';
import { ConversationParams, MessageParams } from 'src/platform/http/route-params';
import { ActionApprovalsService } from 'src/modules/conversations/application/ports/action-approvals';
import {
  BlockedActionsResponse,
  ValidateActionResponse,
} from 'src/modules/conversations/application/views/action.view';
import { PostToConversation } from 'src/modules/conversations/http/conversation-routes.decorators';
import { ValidateActionDto } from 'src/modules/conversations/http/dto/agent-action.dto';

@ApiTags('conversations')
@ApiExtraModels(ValidateActionResponse, BlockedActionsResponse)
@WorkspaceController('assistant/conversations/:cId')
export class AgentActionsController {
  constructor(private readonly actions: ActionApprovalsService) {}

  @PostToConversation('messages/:mId/validate-action')
  @ApiOperation({
    summary: 'Approve or reject a tool call that waits for approval.',
    description:
      'A tool of a server whose space view requires approval does not run until this answer. Approved: the tool runs and the agent goes on; rejected: the agent is told you declined. The member the agent acts for (the author of the message it answers) or an admin may answer; needs `write:conversation`. A call that no longer waits (answered, or declined after the approval timeout) is 409.',
  })
  @ApiOkResponse({ type: ValidateActionResponse })
  @ApiErrors(400, 403, 404, 409)
  async validate(
    @CurrentCaller() caller: Caller,
    @Param() params: MessageParams,
    @Body() body: ValidateActionDto,
  ): Promise<ValidateActionResponse> {
    const action = await this.actions.validate(caller, params.cId, params.mId, body.actionId, body.approved);
    return { success: true, action };
  }

  @Get('actions/blocked')
  @Auth({ scopes: ['read:conversation'] })
  @ApiOperation({
    summary: 'The tool calls of a conversation that wait for approval.',
    description:
      'Oldest first, each with its inputs and the time after which it is declined. Any member who can read the conversation may list them; needs `read:conversation`.',
  })
  @ApiOkResponse({ type: BlockedActionsResponse })
  @ApiErrors(404)
  async blocked(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
  ): Promise<BlockedActionsResponse> {
    return { blockedActions: await this.actions.blocked(caller, params.cId) };
  }
}
