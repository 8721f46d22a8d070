import type { ApiKey } from 'src/modules/identity/application/ports/api-key.repository';
import type { Membership } from 'src/modules/identity/application/ports/member.repository';
import type { Space } from 'src/modules/identity/domain/space';
import type { User } from 'src/modules/identity/domain/user';
import type { Workspace } from 'src/modules/identity/domain/workspace';
import type {
  ApiKeyEntity,
  MembershipEntity,
  SpaceEntity,
  UserEntity,
  WorkspaceEntity,
} from 'src/modules/identity/infrastructure/identity.entities';

export const toWorkspace = (e: WorkspaceEntity): Workspace => ({
  id: e.id,
  sId: e.sId,
  name: e.name,
  createdAt: e.createdAt,
});

export const toUser = (e: UserEntity): User => ({
  id: e.id,
  sId: e.sId,
  username: e.username,
  email: e.email,
  firstName: e.firstName,
  lastName: e.lastName,
  fullName: e.fullName,
  image: e.image,
  provider: e.provider,
  createdAt: e.createdAt,
  lastLoginAt: e.lastLoginAt,
});

export const toMembership = (e: MembershipEntity): Membership => ({
  id: e.id,
  workspaceId: e.workspaceId,
  userId: e.userId,
  role: e.role,
  createdAt: e.createdAt,
});

export const toSpace = (e: SpaceEntity): Space => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  name: e.name,
  kind: e.kind,
  createdAt: e.createdAt,
});

export const toApiKey = (e: ApiKeyEntity, userSId: string): ApiKey => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  userId: e.userId,
  userSId,
  name: e.name,
  scopes: e.scopes,
  secretHash: e.secretHash,
  displayPrefix: e.displayPrefix,
  createdAt: e.createdAt,
  lastUsedAt: e.lastUsedAt,
  revokedAt: e.revokedAt,
});
