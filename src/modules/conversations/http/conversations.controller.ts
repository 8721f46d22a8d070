import { Body, Delete, Get, Param, Patch, Query, applyDecorators } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { OnlyOn, PublicFormOf, WorkspaceController } from 'src/platform/http/api-families';
import { ApiErrors } from 'src/platform/http/api-errors';
import { decodeCursor, encodeCursor } from 'src/platform/http/cursor';
import { PageQuery } from 'src/platform/http/page-query';
import { ConversationParams } from 'src/platform/http/route-params';
import { ConversationDeletionService } from 'src/modules/conversations/application/conversation-deletion.service';
import { ConversationDetailsLoader } from 'src/modules/conversations/application/conversation-details.loader';
import {
  ConversationDeletedResponse,
  ConversationResponse,
  ConversationsResponse,
  CreatedConversationResponse,
  renderConversation,
} from 'src/modules/conversations/application/views/conversation.view';
import {
  PublicConversationResponse,
  PublicCreatedConversationView,
  PublicUpdatedConversationView,
} from 'src/modules/conversations/application/views/public-conversation.view';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { PublicConversationsService } from 'src/modules/conversations/application/public-conversations.service';
import type { Conversation } from 'src/modules/conversations/domain/conversation';
import { PostToConversation } from 'src/modules/conversations/http/conversation-routes.decorators';
import {
  CreateConversationDto,
  UpdateConversationDto,
} from 'src/modules/conversations/http/dto/conversation.dto';
import { MESSAGE_EXAMPLE } from 'src/modules/conversations/http/dto/message.dto';
import { refuseBlocking, toNewConversation } from 'src/modules/conversations/http/message-input';

const DEFAULT_PAGE = 50;

/** What both families' creation routes declare; the public one answers the conversation with its content. */
const CreateConversation = () =>
  applyDecorators(
    PostToConversation(),
    ApiOperation({
      summary: 'Create a conversation, optionally with its first message.',
      description:
        'Any member, with `write:conversation`. The caller becomes its first participant; a `spaceId` ' +
        'puts it in a space the caller can access. The first message may mention agents ' +
        '(`mentions[].configurationId`), which start answering at once, and may come after content fragments.',
    }),
    ApiBody({
      type: CreateConversationDto,
      examples: {
        mention: {
          summary: 'A first message that mentions an agent',
          value: { title: 'Refund questions', message: MESSAGE_EXAMPLE },
        },
      },
    }),
    ApiErrors(400, 404),
  );

const GetConversation = () =>
  applyDecorators(
    Get(':cId'),
    Auth({ scopes: ['read:conversation'] }),
    ApiOperation({
      summary: 'Get a conversation without its content (endpoint 11).',
      description:
        'Any member who can read the conversation, with `read:conversation`: one who can access its ' +
        'space and every space it requests (`requestedSpaceIds`: those its agents need, and those whose ' +
        'data its tools brought in); otherwise 403 `conversation_access_restricted`.',
    }),
    ApiErrors(404),
  );

const UpdateConversation = () =>
  applyDecorators(
    Patch(':cId'),
    Auth({ scopes: ['write:conversation'] }),
    ApiOperation({
      summary: 'Rename a conversation, or mark it read or unread.',
      description:
        'A member who can read the conversation, with `write:conversation`. `read` is per caller; ' +
        '`title` changes it for everyone.',
    }),
    ApiErrors(400, 404),
  );

@ApiTags('conversations')
@WorkspaceController('assistant/conversations')
export class ConversationsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly publicConversations: PublicConversationsService,
    private readonly details: ConversationDetailsLoader,
    private readonly deletion: ConversationDeletionService,
  ) {}

  @CreateConversation()
  @OnlyOn('spec')
  @ApiOkResponse({ type: CreatedConversationResponse })
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateConversationDto,
  ): Promise<CreatedConversationResponse> {
    refuseBlocking(body.blocking || body.message?.blocking);
    const { conversation, message, contentFragments } = await this.conversations.create(
      caller,
      toNewConversation(body),
    );
    const response: CreatedConversationResponse = { conversation: await this.present(caller, conversation) };
    if (message) response.message = message;
    if (contentFragments.length > 0) response.contentFragments = contentFragments;
    return response;
  }

  @CreateConversation()
  @PublicFormOf('create')
  @ApiOkResponse({ type: PublicCreatedConversationView })
  createPublic(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateConversationDto,
  ): Promise<PublicCreatedConversationView> {
    return this.publicConversations.create(caller, toNewConversation(body));
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
    return {
      conversations: details.map(renderConversation),
      nextCursor: page.next === null ? null : encodeCursor(page.next),
    };
  }

  @GetConversation()
  @OnlyOn('spec')
  @ApiOkResponse({ type: ConversationResponse })
  async get(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
  ): Promise<ConversationResponse> {
    const read = await this.conversations.getForReader(caller, params.cId);
    return { conversation: renderConversation(await this.details.loadRead(caller, read)) };
  }

  @GetConversation()
  @PublicFormOf('get')
  @ApiOkResponse({ type: PublicConversationResponse })
  async getPublic(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
  ): Promise<PublicConversationResponse> {
    return { conversation: await this.publicConversations.get(caller, params.cId) };
  }

  @UpdateConversation()
  @OnlyOn('spec')
  @ApiOkResponse({ type: ConversationResponse })
  async update(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Body() body: UpdateConversationDto,
  ): Promise<ConversationResponse> {
    const conversation = await this.conversations.update(caller, params.cId, body);
    return { conversation: await this.present(caller, conversation) };
  }

  @UpdateConversation()
  @PublicFormOf('update')
  @ApiOkResponse({ type: PublicUpdatedConversationView })
  async updatePublic(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Body() body: UpdateConversationDto,
  ): Promise<PublicUpdatedConversationView> {
    return { success: true, conversation: await this.publicConversations.update(caller, params.cId, body) };
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

  private async present(caller: Caller, conversation: Conversation) {
    const [details] = await this.details.load(caller, [conversation]);
    return renderConversation(details);
  }
}
