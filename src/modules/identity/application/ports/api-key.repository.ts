import type { Role } from 'src/platform/auth/caller';
import type { Scope } from 'src/platform/auth/scopes';
import type { Membership } from 'src/modules/identity/application/ports/member.repository';
import type { User } from 'src/modules/identity/domain/user';
import type { Workspace } from 'src/modules/identity/domain/workspace';

/** Here rather than in domain/: its scopes are platform/auth's vocabulary, which the domain does not import. */
export interface ApiKey {
  id: number;
  sId: string;
  workspaceId: number;
  userId: number;
  /** sId of the owning user. */
  userSId: string;
  name: string;
  scopes: Scope[];
  /** SHA-256 of the secret, hex; the secret itself is never stored. */
  secretHash: string;
  /** `sk-` and the first characters, so a person can tell keys apart. */
  displayPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
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
  workspaceName: string;
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

/** Port: persistence of API keys. Every read of a workspace's keys takes its id. */
export abstract class ApiKeyRepository {
  abstract create(key: NewApiKey): Promise<ApiKey>;
  abstract find(workspaceId: number, keySId: string): Promise<ApiKey | null>;
  /** Every key of the workspace when `userId` is null; otherwise that member's. */
  abstract list(workspaceId: number, userId: number | null): Promise<ApiKey[]>;
  abstract revoke(workspaceId: number, keyId: number, at: Date): Promise<ApiKey>;
  /** Revokes every key of a member that is not yet revoked; returns those it revoked. */
  abstract revokeAllOf(workspaceId: number, userId: number, at: Date): Promise<ApiKey[]>;
  /** The key of this secret hash with its workspace, owner and the owner's membership, if any. */
  abstract findPrincipal(secretHash: string): Promise<KeyPrincipal | null>;
  /** The keys of these sIds, read fresh, in one query; unknown sIds are left out. */
  abstract findStandings(keySIds: string[]): Promise<KeyStanding[]>;
  abstract touch(keyId: number, at: Date): Promise<void>;
}
