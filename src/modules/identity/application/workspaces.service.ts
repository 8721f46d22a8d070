import { Injectable } from '@nestjs/common';
import { Caller, ROLES, Role } from 'src/platform/auth/caller';
import { SCOPES, Scope } from 'src/platform/auth/scopes';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { ConflictError, ForbiddenError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { InProcessEvents } from 'src/platform/events/in-process-events';
import { generatePrefixedSId, generateSId } from 'src/platform/ids/sid';
import { MemberRemoved, WorkspaceCreated } from 'src/modules/identity/application/identity.events';
import { ApiKeysService, CreatedApiKey } from 'src/modules/identity/application/api-keys.service';
import { AuthenticationService } from 'src/modules/identity/application/authentication.service';
import { Member, MemberRepository } from 'src/modules/identity/application/ports/member.repository';
import { SpaceRepository } from 'src/modules/identity/application/ports/space.repository';
import { WorkspaceRepository } from 'src/modules/identity/application/ports/workspace.repository';
import { UserNotFound, WorkspaceNotFound } from 'src/modules/identity/domain/identity.errors';
import { checkName } from 'src/platform/text/names';
import { checkEmail, checkFullName } from 'src/modules/identity/domain/identity.rules';
import { GLOBAL_SPACE_NAME } from 'src/modules/identity/domain/space';
import type { NewUserDetails, User } from 'src/modules/identity/domain/user';
import { WORKSPACE_NAME_MAX, Workspace } from 'src/modules/identity/domain/workspace';

/** What other contexts use of users, so they need not reach into identity's domain. */

export interface BootstrapResult {
  workspace: Workspace;
  user: User;
  apiKey: CreatedApiKey;
}

export interface NewMember extends NewUserDetails {
  role: string;
}

/** `.invalid` is reserved: no real mailbox can ever have this address. */
const SYSTEM_USER_EMAIL = 'wake-up@system.invalid';

/** The CLI passes the role as typed; REST has checked it in its DTO already. */
function parseRole(role: string): Role {
  if (!(ROLES as readonly string[]).includes(role)) {
    throw new InvalidRequestError(`role: must be one of ${ROLES.join(', ')}, got "${role}".`);
  }
  return role as Role;
}

@Injectable()
export class WorkspacesService {
  private systemUserCache: User | null = null;

  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly members: MemberRepository,
    private readonly spaces: SpaceRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly apiKeys: ApiKeysService,
    private readonly authentication: AuthenticationService,
    private readonly inProcessEvents: InProcessEvents,
  ) {}

  /** A workspace with its global space, an admin member and an all-scopes key (the operator's first step). */
  bootstrap(input: { workspaceName: string } & NewUserDetails): Promise<BootstrapResult> {
    const name = checkName('workspace', input.workspaceName, WORKSPACE_NAME_MAX);
    checkEmail(input.email);
    checkFullName(input.fullName);
    return this.unitOfWork.run(async () => {
      const workspace = await this.workspaces.create(generateSId(), name);
      await this.spaces.create(generatePrefixedSId('vlt'), workspace.id, GLOBAL_SPACE_NAME, 'global');
      const user = await this.userFor(input);
      await this.members.addMembership(workspace.id, user.id, 'admin');
      // Awaited inside the creating transaction, errors propagated: what other contexts add (the
      // global agents) commits with the workspace or not at all. Agents depends on identity, so
      // identity cannot call it directly.
      await this.inProcessEvents.emitInTransaction(WorkspaceCreated, { workspace, creator: user });
      const apiKey = await this.apiKeys.issue(workspace.id, user.id, 'bootstrap', undefined);
      return { workspace, user, apiKey };
    });
  }

  /** `--workspace W` of the CLI: an sId, or a name that only one workspace has. */
  async resolveWorkspace(reference: string): Promise<Workspace> {
    const bySId = await this.workspaces.findBySId(reference);
    if (bySId) return bySId;
    const byName = await this.workspaces.findByName(reference);
    if (byName.length === 1) return byName[0];
    if (byName.length > 1) {
      throw new InvalidRequestError(`Several workspaces are named "${reference}": use the workspace sId.`);
    }
    throw new WorkspaceNotFound(reference);
  }

  /** The workspace of a route that no key names (signed URLs, public avatars), or null. */
  findBySId(sId: string): Promise<Workspace | null> {
    return this.workspaces.findBySId(sId);
  }

  async findMemberByEmail(workspace: Workspace, email: string): Promise<Member> {
    const member = await this.members.findByEmail(workspace.id, email);
    if (!member) throw new UserNotFound(email);
    return member;
  }

  listMembers(caller: Caller): Promise<Member[]> {
    return this.members.list(caller.workspaceId);
  }

  /** Members named by user sId or email; the references that match nobody come back in `unknown`. */
  async resolveMembers(
    caller: Caller,
    references: { userSIds: string[]; emails: string[] },
  ): Promise<{ members: Member[]; unknown: string[] }> {
    const [bySId, byEmail] = await Promise.all([
      this.members.findBySIds(caller.workspaceId, references.userSIds),
      this.members.findByEmails(caller.workspaceId, references.emails),
    ]);
    const unknown = [
      ...references.userSIds.filter((sId) => !bySId.some((m) => m.user.sId === sId)),
      ...references.emails.filter(
        (email) => !byEmail.some((m) => m.user.email === email.trim().toLowerCase()),
      ),
    ];
    const members = new Map([...bySId, ...byEmail].map((member) => [member.user.id, member]));
    return { members: [...members.values()], unknown };
  }

  /**
   * The caller a background job acts as for a member (all scopes, the member's role now); null when
   * the user is no longer a member.
   */
  async callerFor(workspaceId: number, userId: number, keyId: string): Promise<Caller | null> {
    const [caller] = await this.callersFor([{ workspaceId, userId, keyId }]);
    return caller;
  }

  /** `callerFor` of several members at once (a batch of background jobs): two queries per workspace. */
  async callersFor(
    requests: { workspaceId: number; userId: number; keyId: string }[],
  ): Promise<(Caller | null)[]> {
    const found = new Map<string, { workspace: Workspace; member: Member }>();
    for (const workspaceId of new Set(requests.map((request) => request.workspaceId))) {
      const userIds = requests.filter((r) => r.workspaceId === workspaceId).map((r) => r.userId);
      const members = await this.members.findByUserIds(workspaceId, [...new Set(userIds)]);
      const workspace = members.length > 0 && (await this.workspaces.findById(workspaceId));
      if (!workspace) continue;
      for (const member of members) found.set(`${workspaceId}:${member.user.id}`, { workspace, member });
    }
    return requests.map(({ workspaceId, userId, keyId }) => {
      const match = found.get(`${workspaceId}:${userId}`);
      if (!match) return null;
      const { workspace, member } = match;
      return new Caller(
        workspace.id,
        workspace.sId,
        workspace.name,
        member.user.id,
        member.user.sId,
        member.membership.role,
        [...SCOPES],
        keyId,
      );
    });
  }

  /** Users by row id, members or not (message authors include the system user). */
  usersByIds(userIds: number[]): Promise<User[]> {
    return this.members.findUsersByIds([...new Set(userIds)]);
  }

  /**
   * The author of the messages the service posts itself (wake-ups); created on first use, then
   * kept for the process's life (users are never deleted). Kept only once committed, so a
   * transaction that created it and rolled back leaves nothing behind.
   */
  async systemUser(): Promise<User> {
    if (this.systemUserCache) return this.systemUserCache;
    const details = { email: SYSTEM_USER_EMAIL, fullName: 'Wake-up' };
    const user =
      (await this.members.findUserByEmail(SYSTEM_USER_EMAIL)) ??
      (await this.members.createUser(generateSId(), details, 'system'));
    this.unitOfWork.afterCommit(() => (this.systemUserCache = user));
    return user;
  }

  membersByUserIds(workspaceId: number, userIds: number[]): Promise<Member[]> {
    return this.members.findByUserIds(workspaceId, [...new Set(userIds)]);
  }

  /** Adds a user (created when the email is new) to the workspace; operator (CLI) or admin (REST). */
  async addMember(workspaceId: number, input: NewMember): Promise<Member> {
    checkEmail(input.email);
    checkFullName(input.fullName);
    const role = parseRole(input.role);
    return this.unitOfWork.run(async () => {
      if (await this.members.findByEmail(workspaceId, input.email)) {
        throw new ConflictError(`${input.email} is already a member of this workspace.`);
      }
      const user = await this.userFor(input);
      const membership = await this.members.addMembership(workspaceId, user.id, role);
      return { user, membership };
    });
  }

  /** Admins change roles; the last admin cannot be demoted, however many try at once. */
  async changeRole(caller: Caller, userSId: string, role: Role): Promise<Member> {
    const member = await this.unitOfWork.run(async () => {
      const found = await this.members.find(caller.workspaceId, userSId);
      if (!found) throw new UserNotFound(userSId);
      if (found.membership.role === 'admin' && role !== 'admin') {
        const admins = await this.members.lockAdmins(caller.workspaceId);
        if (admins.length <= 1) {
          throw new ForbiddenError(
            'The last admin of a workspace cannot be demoted: promote another member first.',
          );
        }
      }
      const membership = await this.members.changeRole(caller.workspaceId, found.membership.id, role);
      return { user: found.user, membership };
    });
    this.authentication.forgetMember(caller.workspaceId, member.user.id);
    return member;
  }

  /**
   * Admins remove members: their membership, spaces and keys go in one transaction with what other
   * contexts hold for them (wake-ups, agent editorships, tool calls awaiting their approval); their
   * messages stay. The last admin cannot be removed, however many try at once.
   */
  async removeMember(caller: Caller, userSId: string): Promise<Member> {
    const removed = await this.unitOfWork.run(async () => {
      const found = await this.members.find(caller.workspaceId, userSId);
      if (!found) throw new UserNotFound(userSId);
      if (found.membership.role === 'admin') {
        const admins = await this.members.lockAdmins(caller.workspaceId);
        if (admins.every((admin) => admin.id === found.membership.id)) {
          throw new ForbiddenError(
            'The last admin of a workspace cannot be removed: promote another member first.',
          );
        }
      }
      // Another removal of the same member committed first.
      if (!(await this.members.removeMembership(caller.workspaceId, found.membership.id))) {
        throw new UserNotFound(userSId);
      }
      await this.spaces.removeFromAll(caller.workspaceId, found.user.id);
      await this.apiKeys.revokeAllOf(caller.workspaceId, found.user.id);
      await this.inProcessEvents.emitInTransaction(MemberRemoved, {
        workspaceId: caller.workspaceId,
        user: found.user,
      });
      return found;
    });
    this.authentication.forgetMember(caller.workspaceId, removed.user.id);
    return removed;
  }

  async me(caller: Caller): Promise<{ member: Member; workspace: Workspace; scopes: readonly Scope[] }> {
    const [member, workspace] = await Promise.all([
      this.members.find(caller.workspaceId, caller.userSId),
      this.workspaces.findBySId(caller.workspaceSId),
    ]);
    if (!member || !workspace) throw new UserNotFound(caller.userSId);
    return { member, workspace, scopes: caller.scopes };
  }

  private async userFor(details: NewUserDetails): Promise<User> {
    return (
      (await this.members.findUserByEmail(details.email)) ?? this.members.createUser(generateSId(), details)
    );
  }
}
