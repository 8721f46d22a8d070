import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { AccessChanges } from 'src/platform/events/access-changes';
import { ConflictError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { generatePrefixedSId } from 'src/platform/ids/sid';
import { MemberRepository } from 'src/modules/identity/application/ports/member.repository';
import { SpaceRepository } from 'src/modules/identity/application/ports/space.repository';
import { SpaceNotFound, UserNotFound } from 'src/modules/identity/domain/identity.errors';
import { checkName } from 'src/platform/text/names';
import { SPACE_NAME_MAX, Space } from 'src/modules/identity/domain/space';

/** What other contexts use of spaces, so they need not reach into identity's domain. */

@Injectable()
export class SpacesService {
  constructor(
    private readonly spaces: SpaceRepository,
    private readonly members: MemberRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly accessChanges: AccessChanges,
  ) {}

  /** The spaces the caller can access: the global space and the regular spaces it is a member of. */
  listAccessible(caller: Caller): Promise<Space[]> {
    return this.spaces.list(caller.workspaceId, caller.userId);
  }

  /** Every space of the workspace, accessible or not (for resolving ids; never listed to callers as is). */
  listAll(caller: Caller): Promise<Space[]> {
    return this.spaces.list(caller.workspaceId, null);
  }

  /** A space of the caller's workspace that the caller can access; any other is "not found". */
  async findAccessible(caller: Caller, spaceSId: string): Promise<Space> {
    const space = await this.spaces.findAccessible(caller.workspaceId, caller.userId, spaceSId);
    if (!space) throw new SpaceNotFound(spaceSId);
    return space;
  }

  /** Any space of the caller's workspace, member or not: for administration, not for reading its content. */
  async findInWorkspace(caller: Caller, spaceSId: string): Promise<Space> {
    const space = await this.spaces.find(caller.workspaceId, spaceSId);
    if (!space) throw new SpaceNotFound(spaceSId);
    return space;
  }

  async create(caller: Caller, input: { name: string; memberIds?: string[] }): Promise<Space> {
    const name = checkName('name', input.name, SPACE_NAME_MAX);
    return this.unitOfWork.run(async () => {
      if (await this.spaces.nameExists(caller.workspaceId, name)) {
        throw new ConflictError(`A space named "${name}" already exists in this workspace.`);
      }
      const memberIds = [...new Set(input.memberIds ?? [])];
      const members = await this.members.findBySIds(caller.workspaceId, memberIds);
      const unknown = memberIds.filter((sId) => !members.some((member) => member.user.sId === sId));
      if (unknown.length > 0) {
        throw new InvalidRequestError(`memberIds: not members of this workspace: ${unknown.join(', ')}.`);
      }
      const space = await this.spaces.create(generatePrefixedSId('vlt'), caller.workspaceId, name, 'regular');
      await this.spaces.addMembers(
        caller.workspaceId,
        space.id,
        members.map((member) => member.user.id),
      );
      return space;
    });
  }

  async addMember(caller: Caller, spaceSId: string, userSId: string): Promise<Space> {
    const { space, userId } = await this.regularSpaceAndMember(caller, spaceSId, userSId);
    await this.spaces.addMembers(caller.workspaceId, space.id, [userId]);
    return space;
  }

  /** Announced with the removal, so the member's open streams re-check their access. */
  async removeMember(caller: Caller, spaceSId: string, userSId: string): Promise<Space> {
    const { space, userId } = await this.regularSpaceAndMember(caller, spaceSId, userSId);
    await this.unitOfWork.run(async () => {
      await this.spaces.removeMember(caller.workspaceId, space.id, userId);
      await this.accessChanges.announce({ kind: 'member_changed', workspaceId: caller.workspaceId, userId });
    });
    return space;
  }

  /** `listAccessible` of several members at once (`members[i]`'s spaces at `i`), in one batch. */
  listAccessibleToMembers(members: { workspaceId: number; userId: number }[]): Promise<Space[][]> {
    return this.spaces.listAccessibleToMembers(members);
  }

  async memberIds(caller: Caller, spaces: Space[]): Promise<Map<number, string[]>> {
    return this.spaces.listMemberIds(
      caller.workspaceId,
      spaces.filter((space) => space.kind === 'regular').map((space) => space.id),
    );
  }

  private async regularSpaceAndMember(
    caller: Caller,
    spaceSId: string,
    userSId: string,
  ): Promise<{ space: Space; userId: number }> {
    const space = await this.spaces.find(caller.workspaceId, spaceSId);
    if (!space) throw new SpaceNotFound(spaceSId);
    if (space.kind === 'global') {
      throw new InvalidRequestError(
        'The global space holds every member of the workspace; its members cannot change.',
      );
    }
    const member = await this.members.find(caller.workspaceId, userSId);
    if (!member) throw new UserNotFound(userSId);
    return { space, userId: member.user.id };
  }
}
