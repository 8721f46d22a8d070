import { Body, Get, Header, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { WorkspaceController } from 'src/platform/http/api-families';
import { ApiErrors } from 'src/platform/http/api-errors';
import { ConversationParams } from 'src/platform/http/route-params';
import { ContentFragmentsService } from 'src/modules/conversations/application/content-fragments.service';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { checkFragmentInput } from 'src/modules/conversations/domain/content-fragment';
import { ContentFragmentResponse } from 'src/modules/conversations/application/views/content-fragment.view';
import { PostToConversation } from 'src/modules/conversations/http/conversation-routes.decorators';
import {
  ContentFragmentDto,
  ContentFragmentParams,
} from 'src/modules/conversations/http/dto/content-fragment.dto';

@ApiTags('conversations')
@WorkspaceController('assistant/conversations/:cId/content_fragments')
export class ContentFragmentsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly fragments: ContentFragmentsService,
  ) {}

  @PostToConversation()
  @ApiOperation({
    summary: 'Put a file, a piece of text or a data source document in a conversation (a content fragment).',
    description:
      'Any member who can write to the conversation, with a key of scope `write:conversation`. Give ' +
      '`fileId` (a ready file of use case `conversation`, which then belongs to this conversation and ' +
      'is readable exactly by its readers), `content` with `contentType` (inline text), or `nodeId` with ' +
      '`nodeDataSourceViewId` (a document of a data source view of a space the caller can access, within ' +
      'its parents: its text is attached as it is now; any other is 404 `data_source_view_not_found` or ' +
      '`data_source_document_not_found`, and nothing is written). The fragment ' +
      'takes the next rank, shows in the message list, is announced on the conversation stream as a ' +
      '`user_message_new` event whose message is the fragment, and its text reaches the model in later runs.',
  })
  @ApiOkResponse({ type: ContentFragmentResponse })
  @ApiErrors(400, 401, 403, 404)
  async create(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Body() body: ContentFragmentDto,
  ): Promise<ContentFragmentResponse> {
    const input = checkFragmentInput(body, '');
    const conversation = await this.conversations.get(caller, params.cId);
    const [contentFragment] = await this.fragments.add(caller, conversation, [input]);
    return { contentFragment };
  }

  @Get(':fragmentId/text')
  @Auth({ scopes: ['read:conversation'] })
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @ApiOperation({
    summary: "A content fragment's text (its `textUrl`).",
    description:
      'Any member who can read the conversation, with a key of scope `read:conversation`: the text the ' +
      'model reads, as extracted when the fragment was added (empty for an image or audio file).',
  })
  @ApiOkResponse({
    content: { 'text/plain': { schema: { type: 'string', example: 'Q3 revenue grew 12%…' } } },
  })
  @ApiErrors(401, 403, 404)
  async text(@CurrentCaller() caller: Caller, @Param() params: ContentFragmentParams): Promise<string> {
    const { conversation } = await this.conversations.getForReader(caller, params.cId);
    return (await this.fragments.text(caller, conversation, params.fragmentId)).text;
  }
}
