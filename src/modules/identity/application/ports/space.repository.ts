import type { Space, SpaceKind } from 'src/modules/identity/domain/space';

/** Port: persistence of spaces and their members. Every read takes the workspace id. */
export abstract class SpaceRepository {
  abstract create(sId: string, workspaceId: number, name: string, kind: SpaceKind): Promise<Space>;
  abstract find(workspaceId: number, spaceSId: string): Promise<Space | null>;
  abstract nameExists(workspaceId: number, name: string): Promise<boolean>;
  /** The space `spaceSId` of the workspace when it is global or `userId` is its member; else null. */
  abstract findAccessible(workspaceId: number, userId: number, spaceSId: string): Promise<Space | null>;
  /** All spaces of the workspace when `userId` is null; otherwise the global space and those it is a member of. */
  abstract list(workspaceId: number, userId: number | null): Promise<Space[]>;
  /** For each member (in order): the spaces it can access, as `list` gives them; one batch. */
  abstract listAccessibleToMembers(members: { workspaceId: number; userId: number }[]): Promise<Space[][]>;
  abstract listMemberIds(workspaceId: number, spaceIds: number[]): Promise<Map<number, string[]>>;
  abstract addMembers(workspaceId: number, spaceId: number, userIds: number[]): Promise<void>;
  abstract removeMember(workspaceId: number, spaceId: number, userId: number): Promise<void>;
  /** Takes the user out of every space of the workspace. */
  abstract removeFromAll(workspaceId: number, userId: number): Promise<void>;
}
