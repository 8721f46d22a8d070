import { Body, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { WorkspaceController } from 'src/platform/http/api-families';
import { ApiErrors } from 'src/platform/http/api-errors';
import { ConversationParams } from 'src/platform/http/route-params';
import {
  MENTION_SUGGESTIONS_PER_KIND,
  MentionsService,
} from 'src/modules/agents/application/mentions.service';
import { MentionSuggestionsQuery, ParseMentionsDto } from 'src/modules/agents/http/dto/mentions.dto';
import {
  MentionSuggestionsResponse,
  ParsedMentionsResponse,
} from 'src/modules/agents/application/views/mention.view';

/** What `select` and `current` ask for, in the service's terms. */
function suggestionOptions(query: MentionSuggestionsQuery) {
  return {
    query: query.query,
    agents: query.select === undefined || query.select.includes('agents'),
    users: query.select === undefined || query.select.includes('users'),
    includeCaller: query.current === 'true',
  };
}

const SUGGESTIONS_DESCRIPTION =
  `Dust's \`getMentionsSuggestions\`: up to ${MENTION_SUGGESTIONS_PER_KIND} agents, then up to ${MENTION_SUGGESTIONS_PER_KIND} members, matching \`query\` ` +
  '(a name or a word of it starting with it first, then names containing it; empty lists all). The agents are those of the ' +
  "caller's agent list it can read and mention (live, not archived); the members are the workspace's, the caller left " +
  'out unless `current=true`. A member is shown by full name and username, never by email.';

/** Agents and members to mention, for clients that compose messages. */
@ApiTags('agents')
@WorkspaceController('assistant')
export class MentionsController {
  constructor(private readonly mentions: MentionsService) {}

  @Get('mentions/suggestions')
  @Auth({ scopes: ['read:agent'] })
  @ApiOperation({
    summary: 'Suggest agents and members to mention.',
    description: `${SUGGESTIONS_DESCRIPTION} Needs \`read:agent\`; any role.`,
  })
  @ApiOkResponse({ type: MentionSuggestionsResponse })
  @ApiErrors(400)
  async suggestions(
    @CurrentCaller() caller: Caller,
    @Query() query: MentionSuggestionsQuery,
  ): Promise<MentionSuggestionsResponse> {
    return { suggestions: await this.mentions.suggestions(caller, suggestionOptions(query)) };
  }

  @Get('conversations/:cId/mentions/suggestions')
  @Auth({ scopes: ['read:conversation', 'read:agent'] })
  @ApiOperation({
    summary: 'Suggest agents and members to mention in a conversation.',
    description:
      `${SUGGESTIONS_DESCRIPTION} The conversation's participants (the members who take part, the agents that ` +
      'answered) come before the others that match. Any member who can read the conversation; needs ' +
      '`read:conversation` and `read:agent`.',
  })
  @ApiOkResponse({ type: MentionSuggestionsResponse })
  @ApiErrors(400, 404)
  async suggestionsInConversation(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Query() query: MentionSuggestionsQuery,
  ): Promise<MentionSuggestionsResponse> {
    return { suggestions: await this.mentions.suggestionsIn(caller, params.cId, suggestionOptions(query)) };
  }

  @Post('mentions/parse')
  @HttpCode(200)
  @Auth({ scopes: ['read:agent'] })
  @ApiOperation({
    summary: "Turn `@name` mentions of a text into Dust's mention format.",
    description:
      "Dust's `parseForMentions`: each `@name` of an agent the caller can mention (live, readable, as in the suggestions), " +
      'at the start or after a space and ended by a space, punctuation or the end, any case, becomes `:mention[name]{sId=…}`; ' +
      'the longest name wins. Members are left as typed, as Dust does, so pasted text notifies no one. Needs `read:agent`.',
  })
  @ApiBody({
    type: ParseMentionsDto,
    examples: {
      agent: {
        summary: 'A text naming an agent',
        value: { markdown: 'Hello @support-bot, can you check the refund policy?' },
      },
    },
  })
  @ApiOkResponse({ type: ParsedMentionsResponse })
  @ApiErrors(400)
  async parse(
    @CurrentCaller() caller: Caller,
    @Body() body: ParseMentionsDto,
  ): Promise<ParsedMentionsResponse> {
    return { markdown: await this.mentions.parse(caller, body.markdown) };
  }
}
