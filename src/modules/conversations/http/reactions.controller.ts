import { Body, Delete, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { WorkspaceController } from 'src/platform/http/api-families';
import { ApiErrors } from 'src/platform/http/api-errors';
import { MessageParams } from 'src/platform/http/route-params';
import { MessageViews } from 'src/modules/conversations/application/message-views.loader';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import { REACTIONS_PER_MESSAGE_MAX } from 'src/modules/conversations/domain/reaction';
import { MessageResponse } from 'src/modules/conversations/application/views/message.view';
import { PostToConversation } from 'src/modules/conversations/http/conversation-routes.decorators';
import { ReactionDto } from 'src/modules/conversations/http/dto/reaction.dto';

/** The caller's reactions to a message. */
@ApiTags('conversations')
@WorkspaceController('assistant/conversations/:cId/messages/:mId/reactions', {
  operationIds: 'ConversationsController',
})
export class ReactionsController {
  constructor(
    private readonly messages: MessagesService,
    private readonly views: MessageViews,
  ) {}

  @PostToConversation()
  @ApiOperation({
    summary: "Add the caller's reaction to a message.",
    description: `The body is \`{"emoji"}\` or Dust's \`{"reaction"}\`, exactly one: an emoji, an emoji id (\`+1\`, \`heart\`) or a :shortcode:, at most 64 characters, never a control, invisible or bidirectional character. Adding a reaction the caller already gave changes nothing. A message carries at most ${REACTIONS_PER_MESSAGE_MAX} different emoji: a new one past that is 400 (reacting with one already there is always taken).`,
  })
  @ApiOkResponse({ type: MessageResponse })
  @ApiErrors(400, 404)
  async react(
    @CurrentCaller() caller: Caller,
    @Param() params: MessageParams,
    @Body() body: ReactionDto,
  ): Promise<MessageResponse> {
    const message = await this.messages.react(caller, params.cId, params.mId, body, true);
    return { message: (await this.views.views(caller, [message]))[0] };
  }

  @Delete()
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({
    summary: "Remove the caller's reaction from a message.",
    description:
      'The body is `{"emoji"}` or `{"reaction"}`, exactly one, as when adding. Removing a reaction the caller did not give changes nothing and answers 200.',
  })
  @ApiOkResponse({ type: MessageResponse })
  @ApiErrors(400, 404)
  async unreact(
    @CurrentCaller() caller: Caller,
    @Param() params: MessageParams,
    @Body() body: ReactionDto,
  ): Promise<MessageResponse> {
    const message = await this.messages.react(caller, params.cId, params.mId, body, false);
    return { message: (await this.views.views(caller, [message]))[0] };
  }
}
