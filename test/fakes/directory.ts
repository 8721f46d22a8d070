import { Caller, type Role } from 'src/platform/auth/caller';
import { SCOPES } from 'src/platform/auth/scopes';
import { generatePrefixedSId, generateSId } from 'src/platform/ids/sid';
import type { AgentDetailsLoader } from 'src/modules/agents/application/agent-details.loader';
import { AgentsService } from 'src/modules/agents/application/agents.service';
import type { AgentRepository, RelatedAgent } from 'src/modules/agents/application/ports/agent.repository';
import {
  AgentStatus,
  AgentVersion,
  ResolvedAction,
  defaultPictureUrl,
  isEditableBy,
  isReadableBy,
  requestedSpaceIds,
} from 'src/modules/agents/domain/agent-configuration';
import type { ApiKeysService } from 'src/modules/identity/application/api-keys.service';
import type { Member, Membership } from 'src/modules/identity/application/ports/member.repository';
import type { SpacesService } from 'src/modules/identity/application/spaces.service';
import type { WorkspacesService } from 'src/modules/identity/application/workspaces.service';
import { SpaceNotFound } from 'src/modules/identity/domain/identity.errors';
import type { Space } from 'src/modules/identity/domain/space';
import type { User } from 'src/modules/identity/domain/user';
import type { Workspace } from 'src/modules/identity/domain/workspace';

const CREATED_AT = new Date('2026-01-01T00:00:00.000Z');

/**
 * Workspaces, members, spaces and agents as the other contexts read them, in memory: what the
 * identity and agents contexts answer to the services under test. `workspaces`, `spaces` and
 * `apiKeys` give the methods of those services that the conversations and wake-ups contexts
 * call, with the same rules; `agents` is the real AgentsService on agents kept here.
 */
export class FakeDirectory {
  private readonly workspaceRows: Workspace[] = [];
  private readonly users: User[] = [];
  private readonly memberships: Membership[] = [];
  private readonly spaceRows: (Space & { memberIds: number[] })[] = [];
  private readonly agentVersions: AgentVersion[] = [];
  private readonly revokedKeys = new Set<string>();
  private systemUserRow: User | null = null;
  private lastId = 0;

  readonly workspaces = {
    findBySId: async (sId: string) => this.workspaceRows.find((w) => w.sId === sId) ?? null,
    usersByIds: async (ids: number[]) => this.allUsers().filter((user) => ids.includes(user.id)),
    membersByUserIds: async (workspaceId: number, ids: number[]) =>
      this.members(workspaceId).filter((member) => ids.includes(member.user.id)),
    callersFor: async (requests: { workspaceId: number; userId: number; keyId: string }[]) =>
      requests.map(({ workspaceId, userId, keyId }) => this.callerOrNull(workspaceId, userId, keyId)),
    resolveMembers: async (caller: Caller, references: { userSIds: string[]; emails: string[] }) => {
      const members = this.members(caller.workspaceId).filter(
        (member) =>
          references.userSIds.includes(member.user.sId) || references.emails.includes(member.user.email),
      );
      const unknown = [
        ...references.userSIds.filter((sId) => !members.some((member) => member.user.sId === sId)),
        ...references.emails.filter((email) => !members.some((member) => member.user.email === email)),
      ];
      return { members, unknown };
    },
    systemUser: async () => (this.systemUserRow ??= this.newUser('Wake-up', 'system')),
  } satisfies Partial<Record<keyof WorkspacesService, unknown>> as unknown as WorkspacesService;

  readonly spaces = {
    listAccessible: async (caller: Caller) => this.accessibleSpaces(caller.workspaceId, caller.userId),
    listAll: async (caller: Caller) => this.spacesOf(caller.workspaceId),
    findAccessible: async (caller: Caller, sId: string) => {
      const space = this.accessibleSpaces(caller.workspaceId, caller.userId).find((s) => s.sId === sId);
      if (!space) throw new SpaceNotFound(sId);
      return space;
    },
    listAccessibleToMembers: async (members: { workspaceId: number; userId: number }[]) =>
      members.map(({ workspaceId, userId }) => this.accessibleSpaces(workspaceId, userId)),
  } satisfies Partial<Record<keyof SpacesService, unknown>> as unknown as SpacesService;

  readonly apiKeys = {
    /** Each member has one key, `keyOf(user)`; a revoked key or a departed member has no caller. */
    currentCallers: async (keySIds: string[]) => {
      const callers = new Map<string, Caller>();
      for (const membership of this.memberships) {
        const user = this.user(membership.userId);
        const keyId = this.keyOf(user);
        if (!keySIds.includes(keyId) || this.revokedKeys.has(keyId)) continue;
        callers.set(keyId, this.caller(membership.workspaceId, user.id));
      }
      return callers;
    },
  } satisfies Partial<Record<keyof ApiKeysService, unknown>> as unknown as ApiKeysService;

  readonly agents = new AgentsService(
    {
      listLatest: async (workspaceId: number, filter: { sIds?: string[] }): Promise<RelatedAgent[]> =>
        this.latestAgents(workspaceId)
          .filter((agent) => !filter.sIds || filter.sIds.includes(agent.sId))
          .map((agent) => ({ agent, relations: { favorite: false, editorIds: [], recentAuthorIds: null } })),
    } as unknown as AgentRepository,
    {
      complete: async (caller: Caller, related: RelatedAgent[]) => {
        const accessibleSpaceIds = new Set(
          this.accessibleSpaces(caller.workspaceId, caller.userId).map((space) => space.sId),
        );
        return related.map(({ agent }) => ({
          agent,
          tags: [],
          versionAuthorSId: null,
          userFavorite: false,
          canRead: isReadableBy(agent, { isAdmin: caller.isAdmin, isEditor: false, accessibleSpaceIds }),
          canEdit: isEditableBy(agent, { isAdmin: caller.isAdmin, isEditor: false }),
          requestedSpaceIds: requestedSpaceIds(agent.actions),
        }));
      },
    } as unknown as AgentDetailsLoader,
  );

  /** A workspace with its global space. */
  addWorkspace(name = 'Acme'): Workspace {
    const workspace = { id: this.nextId(), sId: generatePrefixedSId('wsp'), name, createdAt: CREATED_AT };
    this.workspaceRows.push(workspace);
    this.spaceRows.push({
      id: this.nextId(),
      sId: generatePrefixedSId('vlt'),
      workspaceId: workspace.id,
      name: 'Company Data',
      kind: 'global',
      createdAt: CREATED_AT,
      memberIds: [],
    });
    return workspace;
  }

  /** A new user, member of the workspace with this role; returns the caller of their key. */
  addMember(workspace: Workspace, fullName: string, role: Role = 'user'): Caller {
    const user = this.newUser(fullName, 'api');
    this.memberships.push({
      id: this.nextId(),
      workspaceId: workspace.id,
      userId: user.id,
      role,
      createdAt: CREATED_AT,
    });
    return this.caller(workspace.id, user.id);
  }

  removeMember(workspaceId: number, userId: number): void {
    const index = this.memberships.findIndex((m) => m.workspaceId === workspaceId && m.userId === userId);
    if (index !== -1) this.memberships.splice(index, 1);
    for (const space of this.spaceRows) space.memberIds = space.memberIds.filter((id) => id !== userId);
  }

  revokeKey(keyId: string): void {
    this.revokedKeys.add(keyId);
  }

  /** A regular space of the workspace, accessible to these members only. */
  addSpace(workspace: Workspace, name: string, members: Caller[] = []): Space {
    const space = {
      id: this.nextId(),
      sId: generatePrefixedSId('vlt'),
      workspaceId: workspace.id,
      name,
      kind: 'regular' as const,
      createdAt: CREATED_AT,
      memberIds: members.map((member) => member.userId),
    };
    this.spaceRows.push(space);
    return withoutMembers(space);
  }

  leaveSpace(space: Space, member: Caller): void {
    const row = this.spaceRows.find((candidate) => candidate.id === space.id)!;
    row.memberIds = row.memberIds.filter((id) => id !== member.userId);
  }

  /** An agent at version 1; `toolSpaces` are the spaces its tools are shared through (readers need them). */
  addAgent(
    workspace: Workspace,
    name: string,
    options: { status?: AgentStatus; toolSpaces?: Space[] } = {},
  ): AgentVersion {
    const agent: AgentVersion = {
      id: this.nextId(),
      sId: generateSId(),
      workspaceId: workspace.id,
      version: 1,
      versionCreatedAt: CREATED_AT,
      versionAuthorId: null,
      name,
      description: `${name} answers.`,
      instructions: null,
      pictureUrl: defaultPictureUrl(name),
      status: options.status ?? 'active',
      scope: 'visible',
      model: { providerId: 'local', modelId: 'echo', temperature: 0, reasoningEffort: 'none' },
      actions: (options.toolSpaces ?? []).map(toolIn),
      maxStepsPerRun: 8,
      visualizationEnabled: false,
      templateId: null,
      tagIds: [],
      skillIds: [],
    };
    this.agentVersions.push(agent);
    return agent;
  }

  /** The next version of an agent, with these changes (its earlier versions stay, archived). */
  updateAgent(agent: AgentVersion, changes: Partial<Pick<AgentVersion, 'name' | 'status'>>): AgentVersion {
    const latest = this.latestAgents(agent.workspaceId).find((candidate) => candidate.sId === agent.sId)!;
    const next = { ...latest, ...changes, id: this.nextId(), version: latest.version + 1 };
    this.agentVersions.push(next);
    return next;
  }

  /** The caller of a member's key, with their role as it is now. */
  caller(workspaceId: number, userId: number): Caller {
    const caller = this.callerOrNull(workspaceId, userId, this.keyOf(this.user(userId)));
    if (!caller) throw new Error(`User ${userId} is not a member of workspace ${workspaceId}.`);
    return caller;
  }

  user(userId: number): User {
    const user = this.allUsers().find((candidate) => candidate.id === userId);
    if (!user) throw new Error(`No user ${userId}.`);
    return user;
  }

  keyOf(user: Pick<User, 'sId'>): string {
    return `key_${user.sId}`;
  }

  private callerOrNull(workspaceId: number, userId: number, keyId: string): Caller | null {
    const membership = this.memberships.find((m) => m.workspaceId === workspaceId && m.userId === userId);
    const workspace = this.workspaceRows.find((w) => w.id === workspaceId);
    if (!membership || !workspace) return null;
    const user = this.user(userId);
    return new Caller(
      workspace.id,
      workspace.sId,
      workspace.name,
      user.id,
      user.sId,
      membership.role,
      [...SCOPES],
      keyId,
    );
  }

  private members(workspaceId: number): Member[] {
    return this.memberships
      .filter((membership) => membership.workspaceId === workspaceId)
      .map((membership) => ({ user: this.user(membership.userId), membership }));
  }

  /** The sId of a space of the workspace, or null when it has none by that id. */
  spaceSIdOf(workspaceId: number, spaceId: number): string | null {
    return this.spacesOf(workspaceId).find((space) => space.id === spaceId)?.sId ?? null;
  }

  private spacesOf(workspaceId: number): Space[] {
    return this.spaceRows.filter((space) => space.workspaceId === workspaceId).map(withoutMembers);
  }

  private accessibleSpaces(workspaceId: number, userId: number): Space[] {
    const member = this.memberships.some((m) => m.workspaceId === workspaceId && m.userId === userId);
    if (!member) return [];
    return this.spaceRows
      .filter(
        (space) =>
          space.workspaceId === workspaceId && (space.kind === 'global' || space.memberIds.includes(userId)),
      )
      .map(withoutMembers);
  }

  private latestAgents(workspaceId: number): AgentVersion[] {
    const latest = new Map<string, AgentVersion>();
    for (const agent of this.agentVersions) {
      if (agent.workspaceId !== workspaceId) continue;
      const kept = latest.get(agent.sId);
      if (!kept || kept.version < agent.version) latest.set(agent.sId, agent);
    }
    return [...latest.values()];
  }

  private allUsers(): User[] {
    return this.systemUserRow ? [...this.users, this.systemUserRow] : this.users;
  }

  private newUser(fullName: string, provider: string): User {
    const id = this.nextId();
    const [firstName, ...rest] = fullName.split(' ');
    const username = fullName.toLowerCase().replace(/[^a-z0-9]+/g, '.');
    const user: User = {
      id,
      sId: generateSId(),
      username,
      email: `${username}@example.com`,
      firstName,
      lastName: rest.join(' '),
      fullName,
      image: null,
      provider,
      createdAt: CREATED_AT,
      lastLoginAt: null,
    };
    if (provider !== 'system') this.users.push(user);
    return user;
  }

  private nextId(): number {
    return ++this.lastId;
  }
}

function withoutMembers({ memberIds: _memberIds, ...space }: Space & { memberIds: number[] }): Space {
  return space;
}

/** A remote tool shared through `space`: an agent that has one needs readers who access the space. */
function toolIn(space: Space): ResolvedAction {
  return {
    type: 'mcp_server_configuration',
    name: `search_${space.name}`,
    description: `Searches ${space.name}.`,
    mcpServerName: 'search',
    internal: false,
    mcpServerId: generatePrefixedSId('mcp'),
    mcpServerViewId: generatePrefixedSId('msv'),
    spaceId: space.sId,
  };
}
