import { Body, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { WorkspaceController } from 'src/platform/http/api-families';
import { ApiErrors } from 'src/platform/http/api-errors';
import { ConversationParams } from 'src/platform/http/route-params';
import { AgentMessagesService } from 'src/modules/conversations/application/agent-messages.service';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import {
  CancelMessagesDto,
  CancelMessagesResponse,
} from 'src/modules/conversations/http/dto/cancel-messages.dto';
import { PostToConversation } from 'src/modules/conversations/http/conversation-routes.decorators';

/** Dust's form of cancelling (`POST …/{cId}/cancel` with `{messageIds}`), on the public family only. */
@ApiTags('conversations')
@WorkspaceController('assistant/conversations/:cId/cancel', { families: ['public'] })
export class MessageCancellationController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
    private readonly agentMessages: AgentMessagesService,
  ) {}

  @PostToConversation()
  @ApiOperation({
    summary: "Cancel the generation of agent messages (Dust's form).",
    description:
      'Stops each named agent message that is still running; one already finished stays as it is. ' +
      'Every id must name an agent message of the conversation, or nothing is cancelled (404 ' +
      '`message_not_found`, 400 for a user message). Any member who can post in the conversation, ' +
      'with `write:conversation`. Answers `{ "success": true }`.',
  })
  @ApiOkResponse({ type: CancelMessagesResponse })
  @ApiErrors(400, 404)
  async cancel(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Body() body: CancelMessagesDto,
  ): Promise<CancelMessagesResponse> {
    const conversation = await this.conversations.get(caller, params.cId);
    const ids = [...new Set(body.messageIds)];
    // Every id is checked before the first cancellation, so a bad one changes nothing.
    for (const id of ids) {
      const message = await this.messages.findMessage(caller, conversation, id);
      if (message.type !== 'agent_message')
        throw new InvalidRequestError(
          `messageIds: ${id} is not an agent message; only those can be cancelled.`,
        );
    }
    for (const id of ids) await this.agentMessages.cancel(caller, params.cId, id);
    return { success: true };
  }
}
