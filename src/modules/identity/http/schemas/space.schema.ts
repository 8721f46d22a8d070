import type * as views from 'src/modules/identity/application/views/space.view';

export class SpaceView implements views.SpaceView {
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
