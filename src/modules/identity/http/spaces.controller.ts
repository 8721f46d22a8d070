import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { WorkspaceController } from 'src/platform/http/api-families';
import { ApiErrors } from 'src/platform/http/api-errors';
import { SpacesService } from 'src/modules/identity/application/spaces.service';
import type { Space } from 'src/modules/identity/domain/space';
import { CreateSpaceDto, SpaceMemberParams } from 'src/modules/identity/http/dto/spaces.dto';
import {
  SpaceResponse,
  SpacesResponse,
  renderSpace,
} from 'src/modules/identity/application/views/space.view';

@ApiTags('spaces')
@WorkspaceController('spaces')
export class SpacesController {
  constructor(private readonly spaces: SpacesService) {}

  @Get()
  @Auth({ scopes: [] })
  @ApiOperation({
    summary: 'List the spaces the caller can access (the global space and their regular spaces).',
    description:
      'Any member; needs no particular scope. A regular space is listed to its members only (admins included).',
  })
  @ApiOkResponse({
    type: SpacesResponse,
    description: 'The global space and the regular spaces the caller belongs to.',
  })
  async list(@CurrentCaller() caller: Caller): Promise<SpacesResponse> {
    const spaces = await this.spaces.listAccessible(caller);
    const memberIds = await this.spaces.memberIds(caller, spaces);
    return { spaces: spaces.map((space) => renderSpace(space, memberIds)) };
  }

  @Post()
  @HttpCode(200)
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Create a regular (restricted) space with its members.',
    description:
      'Admins only, with a key holding the `admin` scope. Only its members access the space, its data sources and the tool servers shared to it.',
  })
  @ApiOkResponse({ type: SpaceResponse })
  @ApiErrors(400, 409)
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateSpaceDto): Promise<SpaceResponse> {
    return this.present(caller, await this.spaces.create(caller, body));
  }

  @Post(':spaceId/members/:userId')
  @HttpCode(200)
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Add a member of the workspace to a regular space.',
    description: 'Admins only, with a key holding the `admin` scope; adding a member twice changes nothing.',
  })
  @ApiOkResponse({ type: SpaceResponse })
  @ApiErrors(400, 404)
  async addMember(
    @CurrentCaller() caller: Caller,
    @Param() params: SpaceMemberParams,
  ): Promise<SpaceResponse> {
    return this.present(caller, await this.spaces.addMember(caller, params.spaceId, params.userId));
  }

  @Delete(':spaceId/members/:userId')
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Remove a member from a regular space.',
    description:
      'Admins only, with a key holding the `admin` scope. Their open event streams of conversations that need the space end at once.',
  })
  @ApiOkResponse({ type: SpaceResponse })
  @ApiErrors(400, 404)
  async removeMember(
    @CurrentCaller() caller: Caller,
    @Param() params: SpaceMemberParams,
  ): Promise<SpaceResponse> {
    return this.present(caller, await this.spaces.removeMember(caller, params.spaceId, params.userId));
  }

  private async present(caller: Caller, space: Space): Promise<SpaceResponse> {
    return { space: renderSpace(space, await this.spaces.memberIds(caller, [space])) };
  }
}
