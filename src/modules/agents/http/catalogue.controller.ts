import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { SpaceParams } from 'src/platform/http/route-params';
import { CatalogueService } from 'src/modules/agents/application/catalogue.service';
import {
  CreateMcpServerDto,
  CreateSkillDto,
  McpServerViewParams,
  ShareMcpServerDto,
} from 'src/modules/agents/http/dto/agent.dto';
import {
  McpServerViewResponse,
  McpServersResponse,
  RemoteMcpServerResponse,
  SkillResponse,
  SkillsResponse,
  presentRemoteServer,
  presentServerView,
  presentServers,
  presentSkill,
} from 'src/modules/agents/http/catalogue.presenter';

@ApiTags('skills and tool servers')
@Controller('api/w/:wId')
export class CatalogueController {
  constructor(private readonly catalogue: CatalogueService) {}

  @Post('skills')
  @HttpCode(200)
  @Auth({ scopes: ['write:agent'], roles: ['admin', 'builder'] })
  @ApiOkResponse({ type: SkillResponse })
  @ApiErrors(400, 409)
  async createSkill(@CurrentCaller() caller: Caller, @Body() body: CreateSkillDto): Promise<SkillResponse> {
    return { skill: presentSkill(await this.catalogue.createSkill(caller, body)) };
  }

  @Get('skills')
  @Auth({ scopes: ['read:agent'] })
  @ApiOkResponse({ type: SkillsResponse })
  async listSkills(@CurrentCaller() caller: Caller): Promise<SkillsResponse> {
    return { skills: (await this.catalogue.listSkills(caller)).map(presentSkill) };
  }

  @Post('mcp_servers')
  @HttpCode(200)
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOkResponse({ type: RemoteMcpServerResponse })
  @ApiErrors(400)
  async createServer(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateMcpServerDto,
  ): Promise<RemoteMcpServerResponse> {
    return { mcpServer: presentRemoteServer(await this.catalogue.createRemoteServer(caller, body), []) };
  }

  @Get('mcp_servers')
  @Auth({ scopes: ['read:agent'] })
  @ApiOkResponse({ type: McpServersResponse, description: 'The internal catalogue and the remote servers.' })
  async listServers(@CurrentCaller() caller: Caller): Promise<McpServersResponse> {
    return presentServers(await this.catalogue.listServers(caller));
  }

  @Post('spaces/:spaceId/mcp_server_views')
  @HttpCode(200)
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOkResponse({ type: McpServerViewResponse })
  @ApiErrors(400, 404, 409)
  async share(
    @CurrentCaller() caller: Caller,
    @Param() params: SpaceParams,
    @Body() body: ShareMcpServerDto,
  ): Promise<McpServerViewResponse> {
    const { view, server } = await this.catalogue.share(caller, params.spaceId, body.mcpServerId);
    return { mcpServerView: presentServerView(view, params.spaceId, server.sId) };
  }

  @Delete('spaces/:spaceId/mcp_server_views/:viewId')
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOkResponse({ type: McpServerViewResponse })
  @ApiErrors(404)
  async unshare(
    @CurrentCaller() caller: Caller,
    @Param() params: McpServerViewParams,
  ): Promise<McpServerViewResponse> {
    const { view, server } = await this.catalogue.unshare(caller, params.spaceId, params.viewId);
    return { mcpServerView: presentServerView(view, params.spaceId, server?.sId ?? '') };
  }
}
