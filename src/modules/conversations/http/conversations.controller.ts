import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { decodeCursor, encodeCursor } from 'src/platform/http/cursor';
import { ConversationParams, MessageParams } from 'src/platform/http/route-params';
import { AgentMessagesService } from 'src/modules/conversations/application/agent-messages.service';
import { ConversationDetailsLoader } from 'src/modules/conversations/application/conversation-details.loader';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { ForksService } from 'src/modules/conversations/application/forks.service';
import { MessageViews } from 'src/modules/conversations/application/message-views.loader';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import type { Conversation } from 'src/modules/conversations/domain/conversation';
import { REACTIONS_PER_MESSAGE_MAX } from 'src/modules/conversations/domain/reaction';
import {
  CreateConversationDto,
  EditMessageDto,
  ForkDto,
  PageQuery,
  PostMessageWithFragmentsDto,
  ReactionDto,
  UpdateConversationDto,
} from 'src/modules/conversations/http/dto/conversation.dto';
import { toFragmentInputs, toMentions, toMessageInput } from 'src/modules/conversations/http/message-input';
import {
  ConversationResponse,
  ConversationsResponse,
  CreatedConversationResponse,
  MessageResponse,
  MessagesResponse,
  UserMessageResponse,
  presentConversation,
} from 'src/modules/conversations/http/conversation.presenter';

const DEFAULT_PAGE = 50;

function nextCursor(next: number | null): string | null {
  return next === null ? null : encodeCursor(next);
}

@ApiTags('conversations')
@Controller('api/w/:wId/assistant/conversations')
export class ConversationsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messagesService: MessagesService,
    private readonly forks: ForksService,
    private readonly details: ConversationDetailsLoader,
    private readonly views: MessageViews,
    private readonly agentMessages: AgentMessagesService,
  ) {}

  @Post()
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({ summary: 'Create a conversation, optionally with its first message.' })
  @ApiOkResponse({ type: CreatedConversationResponse })
  @ApiErrors(400, 404)
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateConversationDto,
  ): Promise<CreatedConversationResponse> {
    // The body as it is, but its message: a new optional field reaches the service without a line here.
    const { conversation, message, contentFragments } = await this.conversations.create(caller, {
      ...body,
      message: body.message && toMessageInput(body.message, 'message.'),
      contentFragments: toFragmentInputs(body.contentFragments),
    });
    const response: CreatedConversationResponse = { conversation: await this.present(caller, conversation) };
    if (message) response.message = message;
    if (contentFragments.length > 0) response.contentFragments = contentFragments;
    return response;
  }

  @Get()
  @Auth({ scopes: ['read:conversation'] })
  @ApiOperation({ summary: "The caller's conversations, newest first." })
  @ApiOkResponse({ type: ConversationsResponse })
  @ApiErrors(400)
  async list(@CurrentCaller() caller: Caller, @Query() query: PageQuery): Promise<ConversationsResponse> {
    const page = await this.conversations.list(caller, {
      limit: query.limit ?? DEFAULT_PAGE,
      beforeId: query.cursor === undefined ? null : decodeCursor(query.cursor),
    });
    const details = await this.details.load(caller, page.items);
    return { conversations: details.map(presentConversation), nextCursor: nextCursor(page.next) };
  }

  @Get(':cId')
  @Auth({ scopes: ['read:conversation'] })
  @ApiOperation({ summary: 'Get a conversation without its content (endpoint 11).' })
  @ApiOkResponse({ type: ConversationResponse })
  @ApiErrors(404)
  async get(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
  ): Promise<ConversationResponse> {
    const read = await this.conversations.getForReader(caller, params.cId);
    return { conversation: presentConversation(await this.details.loadRead(caller, read)) };
  }

  @Patch(':cId')
  @Auth({ scopes: ['write:conversation'] })
  @ApiOkResponse({ type: ConversationResponse })
  @ApiErrors(400, 404)
  async update(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Body() body: UpdateConversationDto,
  ): Promise<ConversationResponse> {
    const conversation = await this.conversations.update(caller, params.cId, body);
    return { conversation: await this.present(caller, conversation) };
  }

  @Post(':cId/messages')
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
  @ApiOkResponse({ type: UserMessageResponse })
  @ApiErrors(400, 404)
  async post(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Body() body: PostMessageWithFragmentsDto,
  ): Promise<UserMessageResponse> {
    const { contentFragments, ...message } = body;
    return {
      message: await this.messagesService.postMessage(
        caller,
        params.cId,
        toMessageInput(message),
        toFragmentInputs(contentFragments),
      ),
    };
  }

  @Get(':cId/messages')
  @Auth({ scopes: ['read:conversation'] })
  @ApiOperation({ summary: 'The latest version of every message slot, in rank order.' })
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
      nextCursor: nextCursor(page.next),
    };
  }

  @Post(':cId/messages/:mId/edit')
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({ summary: 'Edit a user message (endpoint 2): a new version at the same rank.' })
  @ApiOkResponse({ type: UserMessageResponse })
  @ApiErrors(400, 404)
  async edit(
    @CurrentCaller() caller: Caller,
    @Param() params: MessageParams,
    @Body() body: EditMessageDto,
  ): Promise<UserMessageResponse> {
    const message = await this.messagesService.editMessage(caller, params.cId, params.mId, {
      content: body.content,
      mentions: toMentions(body.mentions),
    });
    return { message };
  }

  @Post(':cId/messages/:mId/reactions')
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({
    summary: "Add the caller's reaction to a message.",
    description: `Adding a reaction the caller already gave changes nothing. A message carries at most ${REACTIONS_PER_MESSAGE_MAX} different emoji: a new one past that is 400 (reacting with one already there is always taken).`,
  })
  @ApiOkResponse({ type: MessageResponse })
  @ApiErrors(400, 404)
  async react(
    @CurrentCaller() caller: Caller,
    @Param() params: MessageParams,
    @Body() body: ReactionDto,
  ): Promise<MessageResponse> {
    const message = await this.messagesService.react(caller, params.cId, params.mId, body.emoji, true);
    return { message: (await this.views.views(caller, [message]))[0] };
  }

  @Delete(':cId/messages/:mId/reactions')
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({
    summary: "Remove the caller's reaction from a message.",
    description: 'Removing a reaction the caller did not give changes nothing and answers 200.',
  })
  @ApiOkResponse({ type: MessageResponse })
  @ApiErrors(400, 404)
  async unreact(
    @CurrentCaller() caller: Caller,
    @Param() params: MessageParams,
    @Body() body: ReactionDto,
  ): Promise<MessageResponse> {
    const message = await this.messagesService.react(caller, params.cId, params.mId, body.emoji, false);
    return { message: (await this.views.views(caller, [message]))[0] };
  }

  @Post(':cId/messages/:mId/cancel')
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({ summary: 'Cancel a running agent message; cancelling a finished one changes nothing.' })
  @ApiOkResponse({ type: MessageResponse })
  @ApiErrors(400, 404)
  async cancel(@CurrentCaller() caller: Caller, @Param() params: MessageParams): Promise<MessageResponse> {
    const message = await this.agentMessages.cancel(caller, params.cId, params.mId);
    return { message: (await this.views.views(caller, [message]))[0] };
  }

  @Post(':cId/fork')
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({ summary: 'Fork the conversation after one of its messages.' })
  @ApiOkResponse({ type: ConversationResponse })
  @ApiErrors(400, 404)
  async fork(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Body() body: ForkDto,
  ): Promise<ConversationResponse> {
    return {
      conversation: await this.present(
        caller,
        await this.forks.fork(caller, params.cId, body.sourceMessageId),
      ),
    };
  }

  private async present(caller: Caller, conversation: Conversation) {
    const [details] = await this.details.load(caller, [conversation]);
    return presentConversation(details);
  }
}
