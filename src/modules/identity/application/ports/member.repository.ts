import type { Role } from 'src/platform/auth/caller';
import type { NewUserDetails, User } from 'src/modules/identity/domain/user';

/** Here rather than in domain/: its role is platform/auth's vocabulary, which the domain does not import. */
export interface Membership {
  id: number;
  workspaceId: number;
  userId: number;
  role: Role;
  createdAt: Date;
}

export interface Member {
  user: User;
  membership: Membership;
}

/**
 * Port: persistence of users (global) and their memberships of workspaces. Every read of a
 * workspace's members takes its id.
 */
export abstract class MemberRepository {
  abstract findUserByEmail(email: string): Promise<User | null>;
  abstract findUsersByIds(ids: number[]): Promise<User[]>;
  abstract createUser(sId: string, details: NewUserDetails, provider?: string): Promise<User>;

  abstract find(workspaceId: number, userSId: string): Promise<Member | null>;
  abstract findByEmail(workspaceId: number, email: string): Promise<Member | null>;
  abstract findBySIds(workspaceId: number, userSIds: string[]): Promise<Member[]>;
  abstract findByEmails(workspaceId: number, emails: string[]): Promise<Member[]>;
  abstract findByUserIds(workspaceId: number, userIds: number[]): Promise<Member[]>;
  abstract list(workspaceId: number): Promise<Member[]>;
  abstract addMembership(workspaceId: number, userId: number, role: Role): Promise<Membership>;
  abstract changeRole(workspaceId: number, membershipId: number, role: Role): Promise<Membership>;
  /** The admins' memberships, locked until the transaction ends (so two demotions cannot both pass). */
  abstract lockAdmins(workspaceId: number): Promise<Membership[]>;
  /** False when the membership was already gone. */
  abstract removeMembership(workspaceId: number, membershipId: number): Promise<boolean>;
}
