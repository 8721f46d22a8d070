export type SpaceKind = 'global' | 'regular';

export interface Space {
  id: number;
  sId: string;
  workspaceId: number;
  name: string;
  kind: SpaceKind;
  createdAt: Date;
}

export const GLOBAL_SPACE_NAME = 'Company Data';
export const SPACE_NAME_MAX = 100;
