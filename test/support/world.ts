import request from 'supertest';
import type { Caller, Role } from 'src/platform/auth/caller';
import { ApiKeysService } from 'src/modules/identity/application/api-keys.service';
import { WorkspacesService } from 'src/modules/identity/application/workspaces.service';
import type { User } from 'src/modules/identity/domain/user';
import type { Workspace } from 'src/modules/identity/domain/workspace';
import type { TestApp } from 'test/support/test-app';

export interface Actor {
  user: User;
  secret: string;
  keyId: string;
  workspace: Workspace;
}

export interface WorkspaceFixture {
  workspace: Workspace;
  admin: Actor;
}

let sequence = 0;
const next = () => `${Date.now().toString(36)}${(sequence++).toString(36)}`;

/** Builds workspaces, members and keys through the application services, as the CLI would. */
export class World {
  constructor(private readonly t: TestApp) {}

  async workspace(name = `Workspace ${next()}`): Promise<WorkspaceFixture> {
    const n = next();
    const result = await this.t.app.get(WorkspacesService).bootstrap({
      workspaceName: name,
      email: `admin-${n}@example.com`,
      fullName: `Admin ${n}`,
    });
    return {
      workspace: result.workspace,
      admin: {
        user: result.user,
        secret: result.apiKey.secret,
        keyId: result.apiKey.key.sId,
        workspace: result.workspace,
      },
    };
  }

  /** The workspace's global agents (assistant, …) as the API lists them: sId by name. */
  async globalAgents(fixture: WorkspaceFixture): Promise<Record<string, string>> {
    const res = await api(this.t, fixture.admin)
      .get(`/api/w/${fixture.workspace.sId}/assistant/agent_configurations?view=global`)
      .expect(200);
    return Object.fromEntries(
      (res.body.agentConfigurations as { sId: string; name: string }[]).map((agent) => [
        agent.name,
        agent.sId,
      ]),
    );
  }

  async member(workspace: Workspace, role: Role, scopes?: string[]): Promise<Actor> {
    const n = next();
    const { user } = await this.t.app.get(WorkspacesService).addMember(workspace.id, {
      email: `${role}-${n}@example.com`,
      fullName: `${role[0].toUpperCase()}${role.slice(1)} ${n}`,
      role,
    });
    return this.key({ user, workspace }, scopes);
  }

  /** The caller a member's full-scope key would give, for driving services directly. */
  async caller(workspace: Workspace, user: User): Promise<Caller> {
    const caller = await this.t.app.get(WorkspacesService).callerFor(workspace.id, user.id, 'key_test');
    if (!caller) throw new Error(`${user.email} is not a member of ${workspace.name}`);
    return caller;
  }

  /**
   * An agent whose tool server is shared only to a new space of `admin` alone: mentioning it makes
   * a conversation need that space.
   */
  async agentNeedingSpace(admin: Actor): Promise<{ spaceSId: string; agentSId: string }> {
    const w = `/api/w/${admin.workspace.sId}`;
    const n = next();
    const space = await api(this.t, admin)
      .post(`${w}/spaces`)
      .send({ name: `Vault ${n}`, memberIds: [admin.user.sId] })
      .expect(200);
    const spaceSId = space.body.space.sId as string;
    const server = await api(this.t, admin)
      .post(`${w}/mcp_servers`)
      .send({ name: `Vault ${n}`, url: 'https://vault.example.com' })
      .expect(200);
    await api(this.t, admin)
      .post(`${w}/spaces/${spaceSId}/mcp_server_views`)
      .send({ mcpServerId: server.body.mcpServer.sId })
      .expect(200);
    const agent = await api(this.t, admin)
      .post(`${w}/assistant/agent_configurations`)
      .send({
        assistant: {
          name: `vault-keeper-${n}`,
          description: '',
          instructions: 'Guard the vault.',
          scope: 'visible',
          model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
          actions: [{ name: 'vault', mcpServerName: server.body.mcpServer.name }],
        },
      })
      .expect(200);
    return { spaceSId, agentSId: agent.body.agentConfiguration.sId as string };
  }

  /** Another key for an existing member. */
  async key(owner: { user: User; workspace: Workspace }, scopes?: string[]): Promise<Actor> {
    const { key, secret } = await this.t.app
      .get(ApiKeysService)
      .issue(owner.workspace.id, owner.user.id, `key ${next()}`, scopes);
    return { user: owner.user, secret, keyId: key.sId, workspace: owner.workspace };
  }
}

/** supertest with the actor's bearer key set. */
export function api(t: TestApp, actor?: { secret: string }) {
  const agent = request(t.http);
  const withKey = (test: request.Test) =>
    actor ? test.set('Authorization', `Bearer ${actor.secret}`) : test;
  return {
    get: (path: string) => withKey(agent.get(path)),
    post: (path: string) => withKey(agent.post(path)),
    patch: (path: string) => withKey(agent.patch(path)),
    delete: (path: string) => withKey(agent.delete(path)),
  };
}
