import { Body, Get, Param, Query, applyDecorators } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { OnlyOn, PublicFormOf, WorkspaceController } from 'src/platform/http/api-families';
import { ApiErrors } from 'src/platform/http/api-errors';
import { decodeCursor, encodeCursor } from 'src/platform/http/cursor';
import { PageQuery } from 'src/platform/http/page-query';
import { ConversationParams, MessageParams } from 'src/platform/http/route-params';
import { AgentMessagesService } from 'src/modules/conversations/application/agent-messages.service';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { MessageViews } from 'src/modules/conversations/application/message-views.loader';
import { MessageVersionsService } from 'src/modules/conversations/application/message-versions.service';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import { PublicConversationsService } from 'src/modules/conversations/application/public-conversations.service';
import { ContentFragmentView } from 'src/modules/conversations/application/views/content-fragment.view';
import {
  AgentMessageResponse,
  AgentMessageView,
  MessageResponse,
  MessagesResponse,
  UserMessageResponse,
  UserMessageView,
} from 'src/modules/conversations/application/views/message.view';
import { PostToConversation } from 'src/modules/conversations/http/conversation-routes.decorators';
import {
  EditMessageDto,
  MESSAGE_EXAMPLE,
  PostMessageWithFragmentsDto,
} from 'src/modules/conversations/http/dto/message.dto';
import {
  refuseBlocking,
  toFragmentInputs,
  toMentions,
  toMessageInput,
} from 'src/modules/conversations/http/message-input';

const DEFAULT_PAGE = 50;

/** What both families' post routes declare; the public one answers once the message's answers exist. */
const PostMessage = () =>
  applyDecorators(
    PostToConversation(),
    ApiOperation({
      summary: 'Post a user message; the agents it mentions answer it.',
      description:
        'A member who can read the conversation, with `write:conversation`. Each mentioned agent ' +
        '(`mentions[].configurationId`, an agent the caller can read) gets an agent message that ' +
        'streams on the conversation events. `contentFragments` take the ranks just before the ' +
        "message, in the same transaction. While another member's wake-up is scheduled in the " +
        'conversation, only that member and admins may post: others get 409 `invalid_request_error`, as in Dust.',
    }),
    ApiBody({
      type: PostMessageWithFragmentsDto,
      examples: { mention: { summary: 'A message that mentions an agent', value: MESSAGE_EXAMPLE } },
    }),
    ApiErrors(400, 403, 404, 409),
  );

/** The messages of a conversation: posted, listed, edited, retried and cancelled. */
@ApiTags('conversations')
// The slots a message list's `oneOf` names.
@ApiExtraModels(UserMessageView, AgentMessageView, ContentFragmentView)
@WorkspaceController('assistant/conversations/:cId/messages', { operationIds: 'ConversationsController' })
export class MessagesController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messagesService: MessagesService,
    private readonly publicConversations: PublicConversationsService,
    private readonly views: MessageViews,
    private readonly agentMessages: AgentMessagesService,
    private readonly versions: MessageVersionsService,
  ) {}

  @PostMessage()
  @OnlyOn('spec')
  @ApiOkResponse({ type: UserMessageResponse })
  async post(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Body() body: PostMessageWithFragmentsDto,
  ): Promise<UserMessageResponse> {
    const { contentFragments, ...message } = body;
    refuseBlocking(body.blocking);
    return {
      message: await this.messagesService.postMessage(
        caller,
        params.cId,
        toMessageInput(message, '', body.skipToolsValidation),
        toFragmentInputs(contentFragments),
      ),
    };
  }

  @PostMessage()
  @PublicFormOf('post')
  @ApiOkResponse({ type: UserMessageResponse })
  async postPublic(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Body() body: PostMessageWithFragmentsDto,
  ): Promise<UserMessageResponse> {
    const { contentFragments, ...message } = body;
    return {
      message: await this.publicConversations.postMessage(
        caller,
        params.cId,
        toMessageInput(message, '', body.skipToolsValidation),
        toFragmentInputs(contentFragments),
        body.blocking ?? false,
      ),
    };
  }

  @Get()
  @Auth({ scopes: ['read:conversation'] })
  @ApiOperation({
    summary: 'The latest version of every message slot, in rank order.',
    description:
      'A member who can read the conversation, with `read:conversation`: user messages, agent ' +
      'messages (with their actions) and content fragments, a page at a time (`limit`, `cursor`).',
  })
  @ApiOkResponse({ type: MessagesResponse })
  @ApiErrors(400, 404)
  async messages(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Query() query: PageQuery,
  ): Promise<MessagesResponse> {
    // Checked before the cursor is read: an unknown or unreadable conversation is 404/403 whatever the cursor.
    // The reader's form of `get`: the same checks, on a prepared statement rather than the query builder.
    const { conversation } = await this.conversations.getForReader(caller, params.cId);
    const { page, reactions } = await this.messagesService.listMessages(caller, conversation, {
      limit: query.limit ?? DEFAULT_PAGE,
      afterRank: query.cursor === undefined ? -1 : decodeCursor(query.cursor),
    });
    return {
      messages: await this.views.slotViews(caller, conversation.sId, page.items, reactions),
      nextCursor: page.next === null ? null : encodeCursor(page.next),
    };
  }

  @PostToConversation(':mId/edit')
  @ApiOperation({
    summary: 'Edit a user message (endpoint 2): a new version at the same rank.',
    description:
      "Only the author edits, and only the latest version (400 otherwise). As in Dust, the edit is answered again: each agent message that answered the previous version gets a new version at its rank answering the edit, run again when the edit still mentions its agent and cancelled (empty) when it does not; agents the edit adds answer at new ranks. Earlier versions stay stored; the list shows the latest. While another member's wake-up is scheduled in the conversation, the edit is 409 `invalid_request_error` (its owner and admins go on). Needs `write:conversation`.",
  })
  @ApiOkResponse({ type: UserMessageResponse })
  @ApiErrors(400, 403, 404, 409)
  async edit(
    @CurrentCaller() caller: Caller,
    @Param() params: MessageParams,
    @Body() body: EditMessageDto,
  ): Promise<UserMessageResponse> {
    const message = await this.versions.edit(caller, params.cId, params.mId, {
      content: body.content,
      mentions: toMentions(body.mentions),
    });
    return { message };
  }

  @PostToConversation(':mId/cancel')
  @ApiOperation({
    summary: 'Cancel a running agent message; cancelling a finished one changes nothing.',
    description:
      'A member who can read the conversation, with `write:conversation`. The run stops, a tool call ' +
      'in flight is aborted, and the stream sends `agent_generation_cancelled`.',
  })
  @ApiOkResponse({ type: MessageResponse })
  @ApiErrors(400, 404)
  async cancel(@CurrentCaller() caller: Caller, @Param() params: MessageParams): Promise<MessageResponse> {
    const message = await this.agentMessages.cancel(caller, params.cId, params.mId);
    return { message: (await this.views.views(caller, [message]))[0] };
  }

  @PostToConversation(':mId/retry')
  @ApiOperation({
    summary: 'Retry an agent message: a new version at the same rank, run again.',
    description:
      'A finished agent message (succeeded, failed or cancelled) gets a new version at its rank, with a new sId and `version` + 1, answering the latest version of its user message and run again by the latest version of its agent; the earlier version stays stored and the message list shows the new one. The conversation stream announces it with `agent_message_new`. A message still being generated is 409, a user message or an earlier version 400. Anyone who can post in the conversation; needs `write:conversation`.',
  })
  @ApiOkResponse({ type: AgentMessageResponse })
  @ApiErrors(400, 403, 404, 409)
  async retry(
    @CurrentCaller() caller: Caller,
    @Param() params: MessageParams,
  ): Promise<AgentMessageResponse> {
    const message = await this.versions.retry(caller, params.cId, params.mId);
    const [view] = await this.views.views(caller, [message]);
    if (view.type !== 'agent_message') throw new Error('A retry always writes an agent message.');
    return { message: view };
  }
}
