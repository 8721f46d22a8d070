import { Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { WorkspaceController } from 'src/platform/http/api-families';
import { ApiErrors } from 'src/platform/http/api-errors';
import { SpaceParams } from 'src/platform/http/route-params';
import { CatalogueService } from 'src/modules/agents/application/catalogue.service';
import {
  ServerViewsResponse,
  renderSpaceServerView,
} from 'src/modules/agents/application/views/catalogue.view';

@ApiTags('skills and tool servers')
@WorkspaceController('spaces/:spaceId/mcp_server_views')
export class McpServerViewsController {
  constructor(private readonly catalogue: CatalogueService) {}

  @Get()
  @Auth({ scopes: ['read:agent'] })
  @ApiOperation({
    summary: 'List the tool servers shared to a space (its MCP server views).',
    description:
      'Any member who can access the space (the global space, or a regular space they belong to), ' +
      "with a key of the `read:agent` scope. Each view shows its server, the server's tools as its " +
      "last synchronisation listed them, and which of them wait for approval. Dust's shape: " +
      '`{ success, serverViews }`. Another space, or one the caller cannot access, is 404 `space_not_found`.',
  })
  @ApiOkResponse({ type: ServerViewsResponse })
  @ApiErrors(404)
  async list(@CurrentCaller() caller: Caller, @Param() params: SpaceParams): Promise<ServerViewsResponse> {
    const views = await this.catalogue.listSpaceViews(caller, params.spaceId);
    return {
      success: true,
      serverViews: views.map((entry) => renderSpaceServerView(params.spaceId, entry)),
    };
  }
}
