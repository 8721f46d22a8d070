import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { SpaceParams } from 'src/platform/http/route-params';
import { CatalogueService } from 'src/modules/agents/application/catalogue.service';
import {
  CreateMcpServerDto,
  McpServerParams,
  McpServerViewParams,
  ShareMcpServerDto,
  UpdateMcpServerViewDto,
} from 'src/modules/agents/http/dto/mcp-server.dto';
import { CreateSkillDto } from 'src/modules/agents/http/dto/skill.dto';
import {
  McpServerViewResponse,
  McpServersView,
  RemoteMcpServerResponse,
  SkillResponse,
  SkillsResponse,
  renderRemoteServer,
  renderServerView,
  renderServers,
  renderSkill,
} from 'src/modules/agents/application/views/catalogue.view';

@ApiTags('skills and tool servers')
@Controller('api/w/:wId')
export class CatalogueController {
  constructor(private readonly catalogue: CatalogueService) {}

  @Post('skills')
  @HttpCode(200)
  @Auth({ scopes: ['write:agent'], roles: ['admin', 'builder'] })
  @ApiOperation({
    summary: 'Create a skill of the workspace.',
    description: 'Builders and admins, with `write:agent`. Names are unique per workspace (409).',
  })
  @ApiOkResponse({ type: SkillResponse })
  @ApiErrors(400, 409)
  async createSkill(@CurrentCaller() caller: Caller, @Body() body: CreateSkillDto): Promise<SkillResponse> {
    return { skill: renderSkill(await this.catalogue.createSkill(caller, body)) };
  }

  @Get('skills')
  @Auth({ scopes: ['read:agent'] })
  @ApiOperation({
    summary: 'List the skills of the workspace.',
    description: 'Any member, with `read:agent`.',
  })
  @ApiOkResponse({ type: SkillsResponse })
  async listSkills(@CurrentCaller() caller: Caller): Promise<SkillsResponse> {
    return { skills: (await this.catalogue.listSkills(caller)).map(renderSkill) };
  }

  @Post('mcp_servers')
  @HttpCode(200)
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Register a remote MCP server, with the tools it lists now.',
    description:
      'Admins only, with a key of the `admin` scope. The service connects to the URL (Streamable HTTP, ' +
      'else the older SSE transport; `sharedSecret` as Bearer) and stores the tools the server lists. ' +
      'A URL that is not http(s), or that is or resolves to a loopback, private, link-local or other ' +
      'non-public address, is refused (400) and nothing is stored, unless the service runs with ' +
      '`MCP_ALLOW_PRIVATE_NETWORKS=true`. A server that cannot be reached is still registered, with ' +
      '`lastSyncError` saying why and no tools; its tools are offered once a sync succeeds.',
  })
  @ApiOkResponse({ type: RemoteMcpServerResponse })
  @ApiErrors(400)
  async createServer(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateMcpServerDto,
  ): Promise<RemoteMcpServerResponse> {
    const server = await this.catalogue.createRemoteServer(caller, body);
    return { mcpServer: renderRemoteServer({ server, views: [] }) };
  }

  @Get('mcp_servers')
  @Auth({ scopes: ['read:agent'] })
  @ApiOperation({
    summary: 'List the internal tool servers and the remote MCP servers of the workspace.',
    description:
      'Any member, with a key of the `read:agent` scope. Each remote server shows its tools, its last ' +
      'synchronisation and the spaces it is shared to, with their approval settings.',
  })
  @ApiOkResponse({ type: McpServersView, description: 'The internal catalogue and the remote servers.' })
  async listServers(@CurrentCaller() caller: Caller): Promise<McpServersView> {
    return renderServers(await this.catalogue.listServers(caller));
  }

  @Get('mcp_servers/:id')
  @Auth({ scopes: ['read:agent'] })
  @ApiOperation({
    summary: 'Show one remote MCP server.',
    description:
      'Any member, with a key of the `read:agent` scope: its tools, last synchronisation (time and ' +
      'error) and the spaces it is shared to. A server of another workspace is 404.',
  })
  @ApiOkResponse({ type: RemoteMcpServerResponse })
  @ApiErrors(404)
  async getServer(
    @CurrentCaller() caller: Caller,
    @Param() params: McpServerParams,
  ): Promise<RemoteMcpServerResponse> {
    return { mcpServer: renderRemoteServer(await this.catalogue.getRemoteServer(caller, params.id)) };
  }

  @Post('mcp_servers/:id/sync')
  @HttpCode(200)
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: "Synchronise a remote MCP server's tools.",
    description:
      'Admins only, with a key of the `admin` scope. Connects again (the address is checked again) and ' +
      'replaces the stored tools with what the server lists now. A failure is not an error of this ' +
      'route: the answer shows it in `lastSyncError`, with no tools, and the server is not offered ' +
      'to runs until a sync succeeds.',
  })
  @ApiOkResponse({ type: RemoteMcpServerResponse })
  @ApiErrors(404)
  async syncServer(
    @CurrentCaller() caller: Caller,
    @Param() params: McpServerParams,
  ): Promise<RemoteMcpServerResponse> {
    return { mcpServer: renderRemoteServer(await this.catalogue.syncRemoteServer(caller, params.id)) };
  }

  @Post('spaces/:spaceId/mcp_server_views')
  @HttpCode(200)
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Share a remote MCP server to a space.',
    description:
      'Admins only, with a key of the `admin` scope. Agents whose callers can access the space may ' +
      'use the server. `requireApproval` (default `"never"`) says which of its tools wait for a ' +
      "user's approval when called through this view.",
  })
  @ApiOkResponse({ type: McpServerViewResponse })
  @ApiErrors(400, 404, 409)
  async share(
    @CurrentCaller() caller: Caller,
    @Param() params: SpaceParams,
    @Body() body: ShareMcpServerDto,
  ): Promise<McpServerViewResponse> {
    const { view, server } = await this.catalogue.share(caller, params.spaceId, body);
    return { mcpServerView: renderServerView(view, params.spaceId, server.sId) };
  }

  @Patch('spaces/:spaceId/mcp_server_views/:viewId')
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: "Change which of a shared server's tools need approval.",
    description:
      'Admins only, with a key of the `admin` scope. Applies to calls made from now on; a call ' +
      'already waiting for approval keeps waiting. A view of another space or workspace is 404.',
  })
  @ApiOkResponse({ type: McpServerViewResponse })
  @ApiErrors(400, 404)
  async updateView(
    @CurrentCaller() caller: Caller,
    @Param() params: McpServerViewParams,
    @Body() body: UpdateMcpServerViewDto,
  ): Promise<McpServerViewResponse> {
    const { view, server } = await this.catalogue.setRequireApproval(
      caller,
      params.spaceId,
      params.viewId,
      body.requireApproval,
    );
    return { mcpServerView: renderServerView(view, params.spaceId, server?.sId ?? '') };
  }

  @Delete('spaces/:spaceId/mcp_server_views/:viewId')
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Stop sharing a remote MCP server to a space.',
    description:
      'Admins only, with a key of the `admin` scope. Runs of callers who can no longer reach the ' +
      'server through another space stop being offered its tools, and say why.',
  })
  @ApiOkResponse({ type: McpServerViewResponse })
  @ApiErrors(404)
  async unshare(
    @CurrentCaller() caller: Caller,
    @Param() params: McpServerViewParams,
  ): Promise<McpServerViewResponse> {
    const { view, server } = await this.catalogue.unshare(caller, params.spaceId, params.viewId);
    return { mcpServerView: renderServerView(view, params.spaceId, server?.sId ?? '') };
  }
}
