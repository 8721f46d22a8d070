import type { Role } from 'src/platform/auth/caller';

export interface Membership {
  id: number;
  workspaceId: number;
  userId: number;
  role: Role;
  createdAt: Date;
}
