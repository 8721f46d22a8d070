export interface SpaceView {
  sId: string;
  name: string;
  kind: 'global' | 'regular';
  createdAt: number;
  updatedAt: number;
  isRestricted: boolean;
  groupIds: string[];
  memberIds: string[] | null;
}
