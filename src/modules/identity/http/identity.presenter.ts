import { ApiProperty } from '@nestjs/swagger';
import { ROLES, Role } from 'src/platform/auth/caller';
import { SCOPES, Scope } from 'src/platform/auth/scopes';
import type { CreatedApiKey } from 'src/modules/identity/application/api-keys.service';
import type { ApiKey } from 'src/modules/identity/application/ports/api-key.repository';
import type { Member } from 'src/modules/identity/application/ports/member.repository';
import type { Space } from 'src/modules/identity/domain/space';
import type { User } from 'src/modules/identity/domain/user';
import type { Workspace } from 'src/modules/identity/domain/workspace';

export class UserView {
  @ApiProperty() sId!: string;
  @ApiProperty() username!: string;
  @ApiProperty() email!: string;
  @ApiProperty() fullName!: string;
  @ApiProperty() firstName!: string;
  @ApiProperty() lastName!: string;
  @ApiProperty({ type: String, nullable: true }) image!: string | null;
}

export class MemberView {
  @ApiProperty({ type: UserView }) user!: UserView;
  @ApiProperty({ enum: ROLES }) role!: Role;
  @ApiProperty({ description: 'ms since the epoch' }) createdAt!: number;
}

export class MemberResponse {
  @ApiProperty({ type: MemberView }) member!: MemberView;
}

export class MembersResponse {
  @ApiProperty({ type: [MemberView] }) members!: MemberView[];
}

export class WorkspaceView {
  @ApiProperty() sId!: string;
  @ApiProperty() name!: string;
}

export class MeResponse {
  @ApiProperty({ type: UserView }) user!: UserView;
  @ApiProperty({ type: WorkspaceView }) workspace!: WorkspaceView;
  @ApiProperty({ enum: ROLES }) role!: Role;
  @ApiProperty({ enum: SCOPES, isArray: true }) scopes!: Scope[];
  @ApiProperty() keyId!: string;
}

export class ApiKeyView {
  @ApiProperty({ example: 'key_3fZ0aBcDeF' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: SCOPES, isArray: true }) scopes!: Scope[];
  @ApiProperty() createdAt!: number;
  @ApiProperty({ type: Number, nullable: true }) lastUsedAt!: number | null;
  @ApiProperty({ type: Number, nullable: true }) revokedAt!: number | null;
  @ApiProperty({ description: 'sId of the member who owns the key' }) userId!: string;
  @ApiProperty({ example: 'sk-3fZ0' }) displayPrefix!: string;
}

export class CreatedApiKeyView {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: SCOPES, isArray: true }) scopes!: Scope[];
  @ApiProperty() createdAt!: number;
  @ApiProperty({ description: 'Shown only in this response.' }) secret!: string;
}

export class CreatedApiKeyResponse {
  @ApiProperty({ type: CreatedApiKeyView }) apiKey!: CreatedApiKeyView;
}

export class ApiKeyResponse {
  @ApiProperty({ type: ApiKeyView }) apiKey!: ApiKeyView;
}

export class ApiKeysResponse {
  @ApiProperty({ type: [ApiKeyView] }) apiKeys!: ApiKeyView[];
}

export class SpaceView {
  @ApiProperty({ example: 'vlt_3fZ0aBcDeF' }) sId!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['global', 'regular'] }) kind!: 'global' | 'regular';
  @ApiProperty() createdAt!: number;
  @ApiProperty({ description: "Spaces have no update route: equal to `createdAt` (Dust's client reads it)." })
  updatedAt!: number;
  @ApiProperty({
    description: 'Whether only its members may use it: every regular space, never the global one.',
  })
  isRestricted!: boolean;
  @ApiProperty({
    type: [String],
    description: "Dust's group ids; this service has no groups, so always empty (access is by `memberIds`).",
  })
  groupIds!: string[];
  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'sIds of the members of a regular space; null for the global space (every member).',
  })
  memberIds!: string[] | null;
}

export class SpaceResponse {
  @ApiProperty({ type: SpaceView }) space!: SpaceView;
}

export class SpacesResponse {
  @ApiProperty({ type: [SpaceView] }) spaces!: SpaceView[];
}

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
