import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { OnlyOn, WorkspaceController } from 'src/platform/http/api-families';
import { ApiErrors } from 'src/platform/http/api-errors';
import { AgentCommandsService, AgentPatch } from 'src/modules/agents/application/agent-commands.service';
import { AgentQueriesService } from 'src/modules/agents/application/agent-queries.service';
import {
  AGENT_HISTORY_MAX,
  AgentHistoryQuery,
  AgentParams,
  ListAgentsQuery,
} from 'src/modules/agents/http/dto/agent-queries.dto';
import { CreateAgentDto } from 'src/modules/agents/http/dto/create-agent.dto';
import { UpdateAgentDto } from 'src/modules/agents/http/dto/update-agent.dto';
import {
  AgentConfigurationResponse,
  AgentConfigurationsResponse,
  AgentHistoryResponse,
  ArchivedAgentResponse,
  UpdatedAgentConfigurationResponse,
  renderPrivateAgent,
  renderPublicAgent,
  renderSkipped,
} from 'src/modules/agents/application/views/agent-configuration.view';

function toPatch(body: UpdateAgentDto): AgentPatch {
  return {
    userFavorite: body.userFavorite,
    name: body.agent?.handle,
    description: body.agent?.description,
    scope: body.agent?.scope,
    pictureUrl: body.agent?.avatar_url,
    maxStepsPerRun: body.agent?.max_steps_per_run,
    visualizationEnabled: body.agent?.visualization_enabled,
    instructions: body.instructions,
    generation: body.generation_settings && {
      modelId: body.generation_settings.model_id,
      providerId: body.generation_settings.provider_id,
      temperature: body.generation_settings.temperature,
      reasoningEffort: body.generation_settings.reasoning_effort,
    },
    tags: body.tags,
    editors: body.editors?.map((editor) => ({ userId: editor.user_id, email: editor.email })),
    skills: body.skills?.map((skill) => ({ sId: skill.sId })),
    toolset: body.toolset?.map((entry) => ({
      name: entry.name,
      description: entry.description,
      mcpServerName: entry.configuration.mcp_server_name,
    })),
  };
}

@ApiTags('agents')
@WorkspaceController('assistant/agent_configurations')
export class AgentConfigurationsController {
  constructor(
    private readonly commands: AgentCommandsService,
    private readonly queries: AgentQueriesService,
  ) {}

  @Post()
  @OnlyOn('spec')
  @HttpCode(200)
  @Auth({ scopes: ['write:agent'] })
  @ApiOperation({
    summary: 'Create an agent configuration (endpoint 3); builders and admins.',
    description:
      "Builders and admins, with `write:agent`. The body's `assistant` holds the configuration; a toolset entry that cannot be resolved is a 400 here (unlike PATCH, which skips it). Answers the private form.",
  })
  @ApiBody({
    type: CreateAgentDto,
    examples: {
      local: {
        summary: 'An agent on the built-in offline model, with the internal wake_ups tools',
        value: {
          assistant: {
            name: 'support-bot',
            description: 'Answers questions about refunds.',
            instructions: 'Answer briefly and cite the policy.',
            scope: 'visible',
            model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
            actions: [{ name: 'wake_ups', mcpServerName: 'wake_ups' }],
          },
        },
      },
    },
  })
  @ApiOkResponse({ type: AgentConfigurationResponse })
  @ApiErrors(400)
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateAgentDto,
  ): Promise<AgentConfigurationResponse> {
    return { agentConfiguration: renderPrivateAgent(await this.commands.create(caller, body.assistant)) };
  }

  @Get()
  @Auth({ scopes: ['read:agent'] })
  @ApiOperation({
    summary: 'List agent configurations (endpoint 4).',
    description:
      'Any member, with `read:agent`: the agents they can read, in the private form, filtered by `view` (all, list, workspace, published, global, favorites, archived…).',
  })
  @ApiOkResponse({ type: AgentConfigurationsResponse })
  @ApiErrors(400)
  async list(
    @CurrentCaller() caller: Caller,
    @Query() query: ListAgentsQuery,
  ): Promise<AgentConfigurationsResponse> {
    const agents = await this.queries.list(caller, {
      view: query.view ?? 'all',
      limit: query.limit,
      sort: query.sort,
      withAuthors: query.withAuthors === 'true',
      withEditors: query.withEditors === 'true',
      withUsage: query.withUsage === 'true',
      withFeedbacks: query.withFeedbacks === 'true',
    });
    return { agentConfigurations: agents.map(renderPrivateAgent) };
  }

  @Get(':sId')
  @Auth({ scopes: ['read:agent'] })
  @ApiOperation({
    summary: 'Get one agent configuration (its latest version), in the private form.',
    description:
      'Any member, with `read:agent`. An agent the caller cannot read answers with `canRead: false` and no instructions.',
  })
  @ApiOkResponse({ type: AgentConfigurationResponse })
  @ApiErrors(404)
  async get(
    @CurrentCaller() caller: Caller,
    @Param() params: AgentParams,
  ): Promise<AgentConfigurationResponse> {
    return { agentConfiguration: renderPrivateAgent(await this.queries.get(caller, params.sId)) };
  }

  @Delete(':sId')
  @Auth({ scopes: ['write:agent'] })
  @ApiOperation({
    summary: 'Archive an agent configuration.',
    description:
      'Editors of the agent and workspace admins, with `write:agent` (others: 403; an agent the caller ' +
      'cannot read: 404; a built-in agent: 403). Its latest version becomes `archived`: it leaves every ' +
      'listing view but `archived`, GET still answers it, a message mentioning it is 404 ' +
      '`agent_configuration_not_found` and a PATCH is 409. Archiving an archived agent changes nothing.',
  })
  @ApiOkResponse({ type: ArchivedAgentResponse })
  @ApiErrors(403, 404)
  async archive(
    @CurrentCaller() caller: Caller,
    @Param() params: AgentParams,
  ): Promise<ArchivedAgentResponse> {
    await this.commands.archive(caller, params.sId);
    return { success: true };
  }

  @Get(':sId/history')
  @Auth({ scopes: ['read:agent'] })
  @ApiOperation({
    summary: "List an agent configuration's versions, newest first.",
    description:
      'Any member who can read the agent, with `read:agent` (otherwise 404), archived agents included: ' +
      `every version in the private form, at most \`limit\` (default and maximum ${AGENT_HISTORY_MAX}).`,
  })
  @ApiOkResponse({ type: AgentHistoryResponse })
  @ApiErrors(400, 404)
  async history(
    @CurrentCaller() caller: Caller,
    @Param() params: AgentParams,
    @Query() query: AgentHistoryQuery,
  ): Promise<AgentHistoryResponse> {
    const versions = await this.queries.history(caller, params.sId, query.limit ?? AGENT_HISTORY_MAX);
    return { history: versions.map(renderPrivateAgent) };
  }

  @Patch(':sId')
  @OnlyOn('public')
  @Auth({ scopes: ['write:agent'] })
  @ApiOperation({
    summary: 'Update an agent configuration (endpoint 1).',
    description:
      'An agent the caller cannot read (hidden and not theirs to edit, or using tools of a space ' +
      'the caller cannot access) answers 404 whatever the body, a `userFavorite` alone included; ' +
      'an archived agent answers 409.',
  })
  @ApiBody({
    type: UpdateAgentDto,
    examples: {
      toolset: {
        summary: 'New instructions and a toolset of one MCP server',
        value: {
          instructions: 'Answer briefly; schedule a follow-up when a refund is pending.',
          toolset: [
            {
              name: 'wake_ups',
              description: 'Schedules follow-ups in the conversation.',
              type: 'MCP',
              configuration: { mcp_server_name: 'wake_ups' },
            },
          ],
        },
      },
    },
  })
  @ApiOkResponse({ type: UpdatedAgentConfigurationResponse })
  @ApiErrors(400, 404, 409)
  async update(
    @CurrentCaller() caller: Caller,
    @Param() params: AgentParams,
    @Body() body: UpdateAgentDto,
  ): Promise<UpdatedAgentConfigurationResponse> {
    const { details, skipped } = await this.commands.update(caller, params.sId, toPatch(body));
    return { agentConfiguration: renderPublicAgent(details), skippedActions: renderSkipped(skipped) };
  }
}
