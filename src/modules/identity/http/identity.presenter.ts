import type { CreatedApiKey } from 'src/modules/identity/application/api-keys.service';
import type { ApiKey } from 'src/modules/identity/application/ports/api-key.repository';
import type { Member } from 'src/modules/identity/application/ports/member.repository';
import type { ApiKeyView, CreatedApiKeyView } from 'src/modules/identity/application/views/api-key.view';
import type { MemberView, UserView, WorkspaceView } from 'src/modules/identity/application/views/member.view';
import type { SpaceView } from 'src/modules/identity/application/views/space.view';
import type { Space } from 'src/modules/identity/domain/space';
import type { User } from 'src/modules/identity/domain/user';
import type { Workspace } from 'src/modules/identity/domain/workspace';

export const presentUser = (user: User): UserView => ({
  sId: user.sId,
  username: user.username,
  email: user.email,
  fullName: user.fullName,
  firstName: user.firstName,
  lastName: user.lastName,
  image: user.image,
});

export const presentMember = ({ user, membership }: Member): MemberView => ({
  user: presentUser(user),
  role: membership.role,
  createdAt: membership.createdAt.getTime(),
});

export const presentWorkspace = (workspace: Workspace): WorkspaceView => ({
  sId: workspace.sId,
  name: workspace.name,
});

export const presentApiKey = (key: ApiKey): ApiKeyView => ({
  id: key.sId,
  name: key.name,
  scopes: key.scopes,
  createdAt: key.createdAt.getTime(),
  lastUsedAt: key.lastUsedAt?.getTime() ?? null,
  revokedAt: key.revokedAt?.getTime() ?? null,
  userId: key.userSId,
  displayPrefix: key.displayPrefix,
});

export const presentCreatedApiKey = ({ key, secret }: CreatedApiKey): CreatedApiKeyView => ({
  id: key.sId,
  name: key.name,
  scopes: key.scopes,
  createdAt: key.createdAt.getTime(),
  secret,
});

export const presentSpace = (space: Space, memberIds: Map<number, string[]>): SpaceView => ({
  sId: space.sId,
  name: space.name,
  kind: space.kind,
  createdAt: space.createdAt.getTime(),
  updatedAt: space.createdAt.getTime(),
  isRestricted: space.kind !== 'global',
  groupIds: [],
  memberIds: space.kind === 'global' ? null : (memberIds.get(space.id) ?? []),
});
