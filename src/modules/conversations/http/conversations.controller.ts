import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { WorkspaceController } from 'src/platform/http/api-families';
import { PageQuery } from 'src/platform/http/page-query';
import { ApiErrors } from 'src/platform/http/api-errors';
import { decodeCursor, encodeCursor } from 'src/platform/http/cursor';
import { ConversationParams, MessageParams } from 'src/platform/http/route-params';
import { AgentMessagesService } from 'src/modules/conversations/application/agent-messages.service';
import { ConversationDeletionService } from 'src/modules/conversations/application/conversation-deletion.service';
import { ConversationDetailsLoader } from 'src/modules/conversations/application/conversation-details.loader';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { ForksService } from 'src/modules/conversations/application/forks.service';
import { MessageViews } from 'src/modules/conversations/application/message-views.loader';
import { MessageVersionsService } from 'src/modules/conversations/application/message-versions.service';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import { ParticipantsService } from 'src/modules/conversations/application/participants.service';
import type { Conversation } from 'src/modules/conversations/domain/conversation';
import { REACTIONS_PER_MESSAGE_MAX } from 'src/modules/conversations/domain/reaction';
import {
  CreateConversationDto,
  EditMessageDto,
  ForkDto,
  PostMessageWithFragmentsDto,
  ReactionDto,
  UpdateConversationDto,
} from 'src/modules/conversations/http/dto/conversation.dto';
import { toFragmentInputs, toMentions, toMessageInput } from 'src/modules/conversations/http/message-input';
import {
  AgentMessageResponse,
  ConversationDeletedResponse,
  ParticipantsResponse,
} from 'src/modules/conversations/http/conversation-lifecycle.presenter';
import {
  ConversationResponse,
  ConversationsResponse,
  CreatedConversationResponse,
  MessageResponse,
  MessagesResponse,
  UserMessageResponse,
  presentConversation,
} from 'src/modules/conversations/http/conversation.presenter';
import { PublicConversationContent } from 'src/modules/conversations/http/public-conversation';

const DEFAULT_PAGE = 50;

/** A user message as pasted into "Try it out": the mention makes the agent answer it. */
const MESSAGE_EXAMPLE = {
  content: 'Summarise our refund policy in two lines.',
  mentions: [{ configurationId: 'Ag4tB7nM1q' }],
  context: { username: 'ada', timezone: 'Europe/Paris' },
};

function nextCursor(next: number | null): string | null {
  return next === null ? null : encodeCursor(next);
}

@ApiTags('conversations')
@WorkspaceController('assistant/conversations')
@UseInterceptors(PublicConversationContent)
export class ConversationsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messagesService: MessagesService,
    private readonly forks: ForksService,
    private readonly details: ConversationDetailsLoader,
    private readonly views: MessageViews,
    private readonly agentMessages: AgentMessagesService,
    private readonly versions: MessageVersionsService,
    private readonly deletion: ConversationDeletionService,
    private readonly participantsService: ParticipantsService,
  ) {}

  @Post()
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({
    summary: 'Create a conversation, optionally with its first message.',
    description:
      'Any member, with `write:conversation`. The caller becomes its first participant; a `spaceId` ' +
      'puts it in a space the caller can access. The first message may mention agents ' +
      '(`mentions[].configurationId`), which start answering at once, and may come after content fragments.',
  })
  @ApiBody({
    type: CreateConversationDto,
    examples: {
      mention: {
        summary: 'A first message that mentions an agent',
        value: { title: 'Refund questions', message: MESSAGE_EXAMPLE },
      },
    },
  })
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
  @ApiOperation({
    summary: "The caller's conversations, newest first.",
    description:
      'Any member, with `read:conversation`: the conversations the caller created or took part in and may ' +
      'still read (a conversation requesting a space the caller cannot access is left out), a page at a ' +
      'time (`limit`, then `cursor` = the previous `nextCursor`).',
  })
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
  @ApiOperation({
    summary: 'Get a conversation without its content (endpoint 11).',
    description:
      'Any member who can read the conversation, with `read:conversation`: one who can access its ' +
      'space and every space it requests (`requestedSpaceIds`: those its agents need, and those whose ' +
      'data its tools brought in); otherwise 403 `conversation_access_restricted`.',
  })
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
  @ApiOperation({
    summary: 'Rename a conversation, or mark it read or unread.',
    description:
      'A member who can read the conversation, with `write:conversation`. `read` is per caller; ' +
      '`title` changes it for everyone.',
  })
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

  @Delete(':cId')
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({
    summary: 'Delete a conversation.',
    description:
      'The conversation\'s creator or a workspace admin deletes it (another member who can read it gets 403; one who cannot, 404). The deletion is soft: from then on every read of the conversation (its messages, events, wake-ups, feedback, fragments, forks, blocked actions) answers 404 and it leaves every list; its open event streams close, its running agent messages are cancelled and its scheduled wake-up is cancelled. Answers `{"success": true}`, as Dust does. Needs `write:conversation`.',
  })
  @ApiOkResponse({ type: ConversationDeletedResponse })
  @ApiErrors(403, 404)
  async delete(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
  ): Promise<ConversationDeletedResponse> {
    await this.deletion.delete(caller, params.cId);
    return { success: true };
  }

  @Get(':cId/participants')
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

  @Post(':cId/messages')
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({
    summary: 'Post a user message; the agents it mentions answer it.',
    description:
      'A member who can read the conversation, with `write:conversation`. Each mentioned agent ' +
      '(`mentions[].configurationId`, an agent the caller can read) gets an agent message that ' +
      'streams on the conversation events. `contentFragments` take the ranks just before the ' +
      "message, in the same transaction. While another member's wake-up is scheduled in the " +
      'conversation, only that member and admins may post: others get 409 `invalid_request_error`, as in Dust.',
  })
  @ApiBody({
    type: PostMessageWithFragmentsDto,
    examples: { mention: { summary: 'A message that mentions an agent', value: MESSAGE_EXAMPLE } },
  })
  @ApiOkResponse({ type: UserMessageResponse })
  @ApiErrors(400, 403, 404, 409)
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
      nextCursor: nextCursor(page.next),
    };
  }

  @Post(':cId/messages/:mId/edit')
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
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

  @Post(':cId/messages/:mId/retry')
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
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

  @Post(':cId/fork')
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({
    summary: 'Fork the conversation after one of its messages.',
    description:
      'A member who can read the conversation, with `write:conversation`: a new conversation of the ' +
      'caller holding the messages up to `sourceMessageId`; the original is unchanged.',
  })
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
