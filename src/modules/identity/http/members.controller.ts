import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { WorkspacesService } from 'src/modules/identity/application/workspaces.service';
import { AddMemberDto, ChangeRoleDto, MemberParams } from 'src/modules/identity/http/dto/members.dto';
import {
  MeView,
  MemberResponse,
  MembersResponse,
  renderMember,
  renderUser,
  renderWorkspace,
} from 'src/modules/identity/application/views/member.view';

@ApiTags('members')
@Controller('api/w/:wId')
export class MembersController {
  constructor(private readonly workspaces: WorkspacesService) {}

  @Get('me')
  @Auth({ scopes: [] })
  @ApiOperation({
    summary: "Who the key belongs to: the member, the workspace, the role and the key's scopes.",
    description:
      'Any key of the workspace, whatever its scopes. Handy to check a key and find the workspace sId.',
  })
  @ApiOkResponse({ type: MeView })
  async me(@CurrentCaller() caller: Caller): Promise<MeView> {
    const { member, workspace, scopes } = await this.workspaces.me(caller);
    return {
      user: renderUser(member.user),
      workspace: renderWorkspace(workspace),
      role: member.membership.role,
      scopes: [...scopes],
      keyId: caller.keyId,
    };
  }

  @Get('members')
  @Auth({ scopes: ['admin'] })
  @ApiOperation({
    summary: 'List the members of the workspace with their roles and emails.',
    description:
      'Needs a key with the `admin` scope (the member directory, emails included); any role may call it.',
  })
  @ApiOkResponse({ type: MembersResponse })
  async list(@CurrentCaller() caller: Caller): Promise<MembersResponse> {
    return { members: (await this.workspaces.listMembers(caller)).map(renderMember) };
  }

  @Post('members')
  @HttpCode(200)
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Add a member to the workspace (creating the user if the email is new).',
    description:
      'Admins only, with a key holding the `admin` scope. The member gets the given role; an email already a member is 409.',
  })
  @ApiOkResponse({ type: MemberResponse })
  @ApiErrors(400, 409)
  async add(@CurrentCaller() caller: Caller, @Body() body: AddMemberDto): Promise<MemberResponse> {
    return { member: renderMember(await this.workspaces.addMember(caller.workspaceId, body)) };
  }

  @Patch('members/:userId')
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: "Change a member's role (admin, builder or user).",
    description:
      'Admins only, with a key holding the `admin` scope. The last admin cannot be demoted (403): promote another member first.',
  })
  @ApiOkResponse({ type: MemberResponse })
  @ApiErrors(400, 404)
  async changeRole(
    @CurrentCaller() caller: Caller,
    @Param() params: MemberParams,
    @Body() body: ChangeRoleDto,
  ): Promise<MemberResponse> {
    return { member: renderMember(await this.workspaces.changeRole(caller, params.userId, body.role)) };
  }

  @Delete('members/:userId')
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Remove a member from the workspace.',
    description:
      "Revokes the member's API keys at once, takes them out of every space, cancels the wake-ups " +
      'they scheduled, declines the tool calls waiting for their approval (an approval after this ' +
      'runs nothing) and drops them as editor of agents. Their messages stay, shown with their ' +
      'name as before. The last admin cannot be removed (403). Answers the removed member with ' +
      'the role they had; removing them again answers 404, and adding them back starts afresh.',
  })
  @ApiOkResponse({ type: MemberResponse, description: 'The removed member, as they were.' })
  @ApiErrors(404)
  async remove(@CurrentCaller() caller: Caller, @Param() params: MemberParams): Promise<MemberResponse> {
    return { member: renderMember(await this.workspaces.removeMember(caller, params.userId)) };
  }
}
