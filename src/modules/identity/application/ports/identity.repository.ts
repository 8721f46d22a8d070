import type { Role } from 'src/platform/auth/caller';
import type { Scope } from 'src/platform/auth/scopes';
import type { ApiKey } from 'src/modules/identity/domain/api-key';
import type { Membership } from 'src/modules/identity/domain/membership';
import type { Space, SpaceKind } from 'src/modules/identity/domain/space';
import type { NewUserDetails, User } from 'src/modules/identity/domain/user';
import type { Workspace } from 'src/modules/identity/domain/workspace';

export interface Member {
  user: User;
  membership: Membership;
}

export interface KeyPrincipal {
  key: ApiKey;
  workspace: Workspace;
  user: User;
  /** Null when the key's owner has left the workspace. */
  membership: Membership | null;
}

/** A key as it stands now, with its owner's current role (null once the owner has left). */
export interface KeyStanding {
  keySId: string;
  revoked: boolean;
  scopes: Scope[];
  workspaceId: number;
  workspaceSId: string;
  userId: number;
  userSId: string;
  role: Role | null;
}

export interface NewApiKey {
  sId: string;
  workspaceId: number;
  userId: number;
  name: string;
  scopes: Scope[];
  secretHash: string;
  displayPrefix: string;
}

/** Port: persistence of workspaces, users, memberships, spaces and API keys. Every read of a workspace's data takes its id. */
export abstract class IdentityRepository {
  abstract createWorkspace(sId: string, name: string): Promise<Workspace>;
  abstract findWorkspaceBySId(sId: string): Promise<Workspace | null>;
  abstract findWorkspaceById(id: number): Promise<Workspace | null>;
  abstract findWorkspacesByName(name: string): Promise<Workspace[]>;

  abstract findUserByEmail(email: string): Promise<User | null>;
  abstract findUsersByIds(ids: number[]): Promise<User[]>;
  abstract createUser(sId: string, details: NewUserDetails, provider?: string): Promise<User>;

  abstract findMember(workspaceId: number, userSId: string): Promise<Member | null>;
  abstract findMemberByEmail(workspaceId: number, email: string): Promise<Member | null>;
  abstract findMembersBySIds(workspaceId: number, userSIds: string[]): Promise<Member[]>;
  abstract findMembersByEmails(workspaceId: number, emails: string[]): Promise<Member[]>;
  abstract findMembersByUserIds(workspaceId: number, userIds: number[]): Promise<Member[]>;
  abstract listMembers(workspaceId: number): Promise<Member[]>;
  abstract createMembership(workspaceId: number, userId: number, role: Role): Promise<Membership>;
  abstract updateMembershipRole(workspaceId: number, membershipId: number, role: Role): Promise<Membership>;
  /** The admins' memberships, locked until the transaction ends (so two demotions cannot both pass). */
  abstract lockAdminMemberships(workspaceId: number): Promise<Membership[]>;
  /** False when the membership was already gone. */
  abstract deleteMembership(workspaceId: number, membershipId: number): Promise<boolean>;

  abstract createSpace(sId: string, workspaceId: number, name: string, kind: SpaceKind): Promise<Space>;
  abstract findSpace(workspaceId: number, spaceSId: string): Promise<Space | null>;
  abstract spaceNameExists(workspaceId: number, name: string): Promise<boolean>;
  /** All spaces of the workspace when `userId` is null; otherwise the global space and those it is a member of. */
  abstract listSpaces(workspaceId: number, userId: number | null): Promise<Space[]>;
  /** For each member (in order): the spaces it can access, as `listSpaces` gives them; one batch. */
  abstract listAccessibleSpacesOfMembers(
    members: { workspaceId: number; userId: number }[],
  ): Promise<Space[][]>;
  abstract listSpaceMemberIds(workspaceId: number, spaceIds: number[]): Promise<Map<number, string[]>>;
  abstract addSpaceMembers(workspaceId: number, spaceId: number, userIds: number[]): Promise<void>;
  abstract removeSpaceMember(workspaceId: number, spaceId: number, userId: number): Promise<void>;
  /** Takes the user out of every space of the workspace. */
  abstract removeFromSpaces(workspaceId: number, userId: number): Promise<void>;

  abstract createApiKey(key: NewApiKey): Promise<ApiKey>;
  abstract findApiKey(workspaceId: number, keySId: string): Promise<ApiKey | null>;
  abstract listApiKeys(workspaceId: number, userId: number | null): Promise<ApiKey[]>;
  abstract revokeApiKey(workspaceId: number, keyId: number, at: Date): Promise<ApiKey>;
  /** Revokes every key of a member that is not yet revoked; returns those it revoked. */
  abstract revokeApiKeysOf(workspaceId: number, userId: number, at: Date): Promise<ApiKey[]>;
  abstract findKeyPrincipal(secretHash: string): Promise<KeyPrincipal | null>;
  /** The keys of these sIds, read fresh, in one query; unknown sIds are left out. */
  abstract findKeyStandings(keySIds: string[]): Promise<KeyStanding[]>;
  abstract touchApiKey(keyId: number, at: Date): Promise<void>;
}
