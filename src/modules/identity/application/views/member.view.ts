import type { Role } from 'src/platform/auth/caller';
import type { Scope } from 'src/platform/auth/scopes';

export interface UserView {
  sId: string;
  username: string;
  email: string;
  fullName: string;
  firstName: string;
  lastName: string;
  image: string | null;
}

export interface MemberView {
  user: UserView;
  role: Role;
  createdAt: number;
}

export interface WorkspaceView {
  sId: string;
  name: string;
}

/** Who calls, with which key: the member, its workspace, its role and the key's scopes. */
export interface MeView {
  user: UserView;
  workspace: WorkspaceView;
  role: Role;
  scopes: Scope[];
  keyId: string;
}
