import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { ConversationParams, MessageParams } from 'src/platform/http/route-params';
import { WorkspaceController } from 'src/platform/http/api-families';
import { FeedbackService } from 'src/modules/feedback/application/feedback.service';
import { GiveFeedbackDto } from 'src/modules/feedback/http/dto/feedback.dto';
import {
  FeedbackSuccessResponse,
  FeedbacksResponse,
  renderFeedback,
} from 'src/modules/feedback/application/views/feedback.view';

/** Endpoint 10 of the specification and the routes that give feedback, in the public (`/api/v1`) family. */
@ApiTags('feedback')
@WorkspaceController('assistant/conversations/:cId', { families: ['public'] })
export class FeedbackController {
  constructor(private readonly feedback: FeedbackService) {}

  @Post('messages/:mId/feedbacks')
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({
    summary: "Give feedback on an agent message; a second call replaces the caller's.",
    description:
      'Any member who can read the conversation, with `write:conversation`: one feedback per member and agent message, `up` or `down` with an optional comment.',
  })
  @ApiOkResponse({ type: FeedbackSuccessResponse })
  @ApiErrors(400, 404)
  async give(
    @CurrentCaller() caller: Caller,
    @Param() params: MessageParams,
    @Body() body: GiveFeedbackDto,
  ): Promise<FeedbackSuccessResponse> {
    await this.feedback.give(caller, params.cId, params.mId, {
      thumbDirection: body.thumbDirection,
      content: body.feedbackContent,
      isConversationShared: body.isConversationShared,
    });
    return { success: true };
  }

  @Delete('messages/:mId/feedbacks')
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({
    summary: "Remove the caller's feedback on an agent message; 200 also when there was none.",
    description: 'Any member who can read the conversation, with `write:conversation`.',
  })
  @ApiOkResponse({ type: FeedbackSuccessResponse })
  @ApiErrors(400, 404)
  async withdraw(
    @CurrentCaller() caller: Caller,
    @Param() params: MessageParams,
  ): Promise<FeedbackSuccessResponse> {
    await this.feedback.withdraw(caller, params.cId, params.mId);
    return { success: true };
  }

  @Get('feedbacks')
  @Auth({ scopes: ['read:conversation'] })
  @ApiOperation({
    summary: 'Every feedback entry of the conversation, oldest first (endpoint 10).',
    description: 'Any member who can read the conversation, with `read:conversation`.',
  })
  @ApiOkResponse({ type: FeedbacksResponse })
  @ApiErrors(404)
  async list(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
  ): Promise<FeedbacksResponse> {
    return { feedbacks: (await this.feedback.list(caller, params.cId)).map(renderFeedback) };
  }
}
