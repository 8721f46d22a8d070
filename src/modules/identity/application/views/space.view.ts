import type { Space } from 'src/modules/identity/domain/space';

export class SpaceView {
  /** @example vlt_3fZ0aBcDeF */
  sId!: string;
  name!: string;
  kind!: 'global' | 'regular';
  createdAt!: number;
  /** Spaces have no update route: equal to `createdAt` (Dust's client reads it). */
  updatedAt!: number;
  /** Whether only its members may use it: every regular space, never the global one. */
  isRestricted!: boolean;
  /** Dust's group ids; this service has no groups, so always empty (access is by `memberIds`). */
  groupIds!: string[];
  /** sIds of the members of a regular space; null for the global space (every member). */
  memberIds!: string[] | null;
}

export class SpaceResponse {
  space!: SpaceView;
}

export class SpacesResponse {
  spaces!: SpaceView[];
}

/** `memberIds`: the sIds of each regular space's members, by space id (SpacesService.memberIds). */
export const renderSpace = (space: Space, memberIds: Map<number, string[]>): SpaceView => ({
  sId: space.sId,
  name: space.name,
  kind: space.kind,
  createdAt: space.createdAt.getTime(),
  updatedAt: space.createdAt.getTime(),
  isRestricted: space.kind !== 'global',
  groupIds: [],
  memberIds: space.kind === 'global' ? null : (memberIds.get(space.id) ?? []),
});
