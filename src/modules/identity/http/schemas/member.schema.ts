import type * as views from 'src/modules/identity/application/views/member.view';
import type { Role } from 'src/platform/auth/caller';
import type { Scope } from 'src/platform/auth/scopes';

export class UserView implements views.UserView {
  sId!: string;
  username!: string;
  email!: string;
  fullName!: string;
  firstName!: string;
  lastName!: string;
  image!: string | null;
}

export class MemberView implements views.MemberView {
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

export class WorkspaceView implements views.WorkspaceView {
  sId!: string;
  name!: string;
}

export class MeResponse implements views.MeView {
  user!: UserView;
  workspace!: WorkspaceView;
  role!: Role;
  scopes!: Scope[];
  keyId!: string;
}
