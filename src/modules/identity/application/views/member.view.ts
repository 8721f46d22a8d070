import { ApiSchema } from '@nestjs/swagger';
import type { Role } from 'src/platform/auth/caller';
import type { Scope } from 'src/platform/auth/scopes';
import type { Member } from 'src/modules/identity/application/ports/member.repository';
import type { User } from 'src/modules/identity/domain/user';
import type { Workspace } from 'src/modules/identity/domain/workspace';

export class UserView {
  sId!: string;
  username!: string;
  email!: string;
  fullName!: string;
  firstName!: string;
  lastName!: string;
  image!: string | null;
}

export class MemberView {
  user!: UserView;
  role!: Role;
  /** ms since the epoch */
  createdAt!: number;
}

export class MemberResponse {
  member!: MemberView;
}

export class MembersResponse {
  members!: MemberView[];
}

export class WorkspaceView {
  sId!: string;
  name!: string;
}

/** Who calls, with which key: the member, its workspace, its role and the key's scopes. */
@ApiSchema({ name: 'MeResponse' })
export class MeView {
  user!: UserView;
  workspace!: WorkspaceView;
  role!: Role;
  scopes!: Scope[];
  keyId!: string;
}

export const renderUser = (user: User): UserView => ({
  sId: user.sId,
  username: user.username,
  email: user.email,
  fullName: user.fullName,
  firstName: user.firstName,
  lastName: user.lastName,
  image: user.image,
});

export const renderMember = ({ user, membership }: Member): MemberView => ({
  user: renderUser(user),
  role: membership.role,
  createdAt: membership.createdAt.getTime(),
});

export const renderWorkspace = (workspace: Workspace): WorkspaceView => ({
  sId: workspace.sId,
  name: workspace.name,
});
