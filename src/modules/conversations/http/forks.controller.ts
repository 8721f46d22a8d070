import { Body, Param, applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { OnlyOn, PublicFormOf, WorkspaceController } from 'src/platform/http/api-families';
import { ApiErrors } from 'src/platform/http/api-errors';
import { ConversationParams } from 'src/platform/http/route-params';
import { ConversationDetailsLoader } from 'src/modules/conversations/application/conversation-details.loader';
import {
  ConversationResponse,
  renderConversation,
} from 'src/modules/conversations/application/views/conversation.view';
import { PublicConversationResponse } from 'src/modules/conversations/application/views/public-conversation.view';
import { ForksService } from 'src/modules/conversations/application/forks.service';
import { PublicConversationsService } from 'src/modules/conversations/application/public-conversations.service';
import { PostToConversation } from 'src/modules/conversations/http/conversation-routes.decorators';
import { ForkDto } from 'src/modules/conversations/http/dto/fork.dto';

/** What both families' fork routes declare; the public one answers the fork with its content. */
const ForkConversation = () =>
  applyDecorators(
    PostToConversation(),
    ApiOperation({
      summary: 'Fork the conversation after one of its messages.',
      description:
        'A member who can read the conversation, with `write:conversation`: a new conversation of the ' +
        'caller holding the messages up to `sourceMessageId`; the original is unchanged.',
    }),
    ApiErrors(400, 404),
  );

/** Forks: a new conversation from the messages of another. */
@ApiTags('conversations')
@WorkspaceController('assistant/conversations/:cId/fork', { operationIds: 'ConversationsController' })
export class ForksController {
  constructor(
    private readonly forks: ForksService,
    private readonly publicConversations: PublicConversationsService,
    private readonly details: ConversationDetailsLoader,
  ) {}

  @ForkConversation()
  @OnlyOn('spec')
  @ApiOkResponse({ type: ConversationResponse })
  async fork(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Body() body: ForkDto,
  ): Promise<ConversationResponse> {
    const fork = await this.forks.fork(caller, params.cId, body.sourceMessageId);
    const [details] = await this.details.load(caller, [fork]);
    return { conversation: renderConversation(details) };
  }

  @ForkConversation()
  @PublicFormOf('fork')
  @ApiOkResponse({ type: PublicConversationResponse })
  async forkPublic(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Body() body: ForkDto,
  ): Promise<PublicConversationResponse> {
    return {
      conversation: await this.publicConversations.fork(caller, params.cId, body.sourceMessageId),
    };
  }
}
