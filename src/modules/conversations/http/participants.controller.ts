import { Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { WorkspaceController } from 'src/platform/http/api-families';
import { ApiErrors } from 'src/platform/http/api-errors';
import { ConversationParams } from 'src/platform/http/route-params';
import { ParticipantsService } from 'src/modules/conversations/application/participants.service';
import { ParticipantsResponse } from 'src/modules/conversations/application/views/conversation-participants.view';

/** Who takes part in a conversation. */
@ApiTags('conversations')
@WorkspaceController('assistant/conversations/:cId/participants', {
  operationIds: 'ConversationsController',
})
export class ParticipantsController {
  constructor(private readonly participantsService: ParticipantsService) {}

  @Get()
  @Auth({ scopes: ['read:conversation'] })
  @ApiOperation({
    summary: "A conversation's participants: its members and agents.",
    description:
      "Dust's `ConversationParticipantsType`: the members who take part (first comers first), each with what they did (`posted` a message, else `reacted` to one, else `subscribed`), and the agents that answered in it, in the order they first did. Any member who can read the conversation; needs `read:conversation`.",
  })
  @ApiOkResponse({ type: ParticipantsResponse })
  @ApiErrors(403, 404)
  async participants(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
  ): Promise<ParticipantsResponse> {
    return { participants: await this.participantsService.list(caller, params.cId) };
  }
}
