import { CONVERSATION_STREAM_TYPES } from 'src/modules/conversations/application/views/conversation-event.view';
import request from 'supertest';
import type { Caller, Role } from 'src/platform/auth/caller';
import { ApiKeysService } from 'src/modules/identity/application/api-keys.service';
import { WorkspacesService } from 'src/modules/identity/application/workspaces.service';
import type { User } from 'src/modules/identity/domain/user';
import type { Workspace } from 'src/modules/identity/domain/workspace';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { openSse } from 'test/support/sse-client';
import type { TestApp } from 'test/support/test-app';
import { until } from 'test/support/until';

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

/** Whoever calls the API: a key, and the workspace it opens. */
export interface KeyHolder {
  secret: string;
  workspace: { sId: string };
}

/** An app of this process, or the base URL of a service running as its own process. */
export type Target = TestApp | string;

export interface MessageContext {
  username: string;
  timezone: string;
}

export const defaultContext: MessageContext = { username: 'ada', timezone: 'UTC' };

export interface ConversationSpec {
  title?: string;
  spaceId?: string;
  /** A first message, sent with the creation. */
  message?: string;
  /** sIds of the agents the first message mentions. */
  mentions?: string[];
  context?: MessageContext;
  /** Messages posted one after the other once the conversation exists. */
  messages?: string[];
}

export interface UserMessageBody extends Record<string, unknown> {
  sId: string;
  rank: number;
  content: string;
  created: number;
}

export interface BuiltConversation {
  sId: string;
  conversation: Record<string, unknown> & { sId: string; title: string | null };
  /** The first message, when the spec had one. */
  message?: UserMessageBody;
  /** The messages posted after the creation, in order. */
  messages: UserMessageBody[];
}

/** A message of a conversation's list, user or agent message: the fields the specs read. */
export interface ListedMessage {
  sId: string;
  id: number;
  type: string;
  status?: string;
  content: string;
  rank: number;
  context?: { origin?: string };
  error?: { code: string; message: string } | null;
  configuration?: { sId: string; name: string };
  parentMessageId?: string;
}

/** An event of a conversation's stream, with its position, as the log keeps it. */
export interface StreamedEvent<P = Record<string, unknown>> {
  id: string;
  type: string;
  payload: P;
}

let sequence = 0;
const next = () => `${Date.now().toString(36)}${(sequence++).toString(36)}`;

/** The body of a 200 answer that matches the API's `schema`: a builder that gets less fails at once. */
function built(res: request.Response, schema: string): Record<string, Record<string, unknown>> {
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  expect(res.body).toMatchApiSchema(schema);
  return res.body as Record<string, Record<string, unknown>>;
}

/**
 * Builds resources through the HTTP API, as a client would, so it works as well against a service
 * process as against an app of this process.
 */
export class ApiWorld {
  constructor(protected readonly target: Target) {}

  /** The workspace's global agents (assistant, …) as the API lists them: sId by name. */
  async globalAgents(fixture: { admin: KeyHolder }): Promise<Record<string, string>> {
    const res = await api(this.target, fixture.admin)
      .get(`${paths.agents(fixture.admin.workspace.sId)}?view=global`)
      .expect(200);
    return Object.fromEntries(
      (res.body.agentConfigurations as { sId: string; name: string }[]).map((agent) => [
        agent.name,
        agent.sId,
      ]),
    );
  }

  /** The sId of the workspace's global space. */
  async globalSpace(actor: KeyHolder): Promise<string> {
    const res = await api(this.target, actor).get(paths.spaces(actor.workspace.sId)).expect(200);
    return (res.body.spaces as { sId: string; kind: string }[]).find((space) => space.kind === 'global')!.sId;
  }

  /** A regular space of the admin's workspace, with exactly these members. */
  async space(
    admin: KeyHolder,
    { name = `Space ${next()}`, members }: { name?: string; members: { user: { sId: string } }[] },
  ): Promise<{ sId: string; name: string }> {
    const res = await api(this.target, admin)
      .post(paths.spaces(admin.workspace.sId))
      .send({ name, memberIds: members.map((member) => member.user.sId) });
    return built(res, 'SpaceResponse').space as { sId: string; name: string };
  }

  /** A remote tool server, shared into each of `spaceIds`. */
  async toolServer(
    admin: KeyHolder,
    {
      name,
      url = 'https://mcp.example.com/sse',
      spaceIds,
    }: { name: string; url?: string; spaceIds: string[] },
  ): Promise<{ sId: string; name: string; viewSIds: string[] }> {
    const wId = admin.workspace.sId;
    const res = await api(this.target, admin).post(paths.toolServers(wId)).send({ name, url });
    const server = built(res, 'RemoteMcpServerResponse').mcpServer as { sId: string; name: string };
    const viewSIds: string[] = [];
    for (const spaceId of spaceIds) {
      const view = await api(this.target, admin)
        .post(paths.toolServerViews(wId, spaceId))
        .send({ mcpServerId: server.sId });
      viewSIds.push(built(view, 'McpServerViewResponse').mcpServerView.sId as string);
    }
    return { sId: server.sId, name: server.name, viewSIds };
  }

  /** An agent of the actor's workspace; `overrides` replace fields of the creation's `assistant`. */
  async agent<A extends { sId: string; name: string } = { sId: string; name: string }>(
    actor: KeyHolder,
    overrides: Record<string, unknown> = {},
  ): Promise<A> {
    const res = await api(this.target, actor)
      .post(paths.agents(actor.workspace.sId))
      .send({
        assistant: {
          name: `agent-${next()}`,
          description: 'Answers questions',
          instructions: 'Be brief.',
          scope: 'visible',
          model: { providerId: 'local', modelId: 'local-1', temperature: 0.3 },
          ...overrides,
        },
      });
    return built(res, 'AgentConfigurationResponse').agentConfiguration as A;
  }

  /**
   * An agent whose tool server is shared only to a new space of `admin` alone: mentioning it makes
   * a conversation need that space.
   */
  async agentNeedingSpace(admin: Actor): Promise<{ spaceSId: string; agentSId: string }> {
    const n = next();
    const space = await this.space(admin, { name: `Vault ${n}`, members: [admin] });
    const server = await this.toolServer(admin, {
      name: `Vault ${n}`,
      url: 'https://vault.example.com',
      spaceIds: [space.sId],
    });
    const agent = await this.agent(admin, {
      name: `vault-keeper-${n}`,
      description: '',
      instructions: 'Guard the vault.',
      model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
      actions: [{ name: 'vault', mcpServerName: server.name }],
    });
    return { spaceSId: space.sId, agentSId: agent.sId };
  }

  /** A conversation of the actor; only the fields of `spec` that are set go into the creation. */
  async conversation(actor: KeyHolder, spec: ConversationSpec = {}): Promise<BuiltConversation> {
    const { title, spaceId, message, mentions = [], context = defaultContext, messages = [] } = spec;
    const res = await api(this.target, actor)
      .post(paths.conversations(actor.workspace.sId))
      .send({
        ...(title !== undefined && { title }),
        ...(spaceId !== undefined && { spaceId }),
        ...(message !== undefined && {
          message: {
            content: message,
            mentions: mentions.map((configurationId) => ({ configurationId })),
            context,
          },
        }),
      });
    const body = built(res, 'CreatedConversationResponse');
    const conversation = body.conversation as BuiltConversation['conversation'];
    const posted: UserMessageBody[] = [];
    for (const content of messages)
      posted.push(await this.message(actor, conversation.sId, content, { context }));
    return {
      sId: conversation.sId,
      conversation,
      message: body.message as UserMessageBody | undefined,
      messages: posted,
    };
  }

  /** A user message posted to a conversation. */
  async message(
    actor: KeyHolder,
    cId: string,
    content: string,
    { mentions = [], context = defaultContext }: { mentions?: string[]; context?: MessageContext } = {},
  ): Promise<UserMessageBody> {
    const res = await api(this.target, actor)
      .post(paths.messages(actor.workspace.sId, cId))
      .send({ content, mentions: mentions.map((configurationId) => ({ configurationId })), context });
    return built(res, 'UserMessageResponse').message as UserMessageBody;
  }

  /** A conversation's messages as the actor lists them. */
  async messages(actor: KeyHolder, cId: string): Promise<ListedMessage[]> {
    const res = await api(this.target, actor).get(paths.messages(actor.workspace.sId, cId)).expect(200);
    expect(res.body).toMatchApiSchema('MessagesResponse');
    return res.body.messages as ListedMessage[];
  }

  /** The messages once `count` agent messages of the conversation have ended, whatever their outcome. */
  settled(actor: KeyHolder, cId: string, count = 1): Promise<ListedMessage[]> {
    return until(
      () => this.messages(actor, cId),
      (list) => list.filter((m) => m.type === 'agent_message' && m.status !== 'created').length >= count,
    );
  }

  /** A one-shot wake-up of `agent` in the conversation, due in an hour unless `fireAt` says when. */
  async wakeUp(
    actor: KeyHolder,
    cId: string,
    {
      agent,
      fireAt = Date.now() + 3_600_000,
      reason = 'Check in',
    }: { agent: string; fireAt?: number; reason?: string },
  ): Promise<{ sId: string; status: string }> {
    const res = await api(this.target, actor)
      .post(paths.wakeUps(actor.workspace.sId, cId))
      .send({ agentConfigurationId: agent, scheduleConfig: { type: 'one_shot', fireAt }, reason });
    return built(res, 'WakeUpResponse').wakeUp as { sId: string; status: string };
  }

  /** A file record waiting for its upload; `body` replaces fields of a 1,000-byte text file. */
  async file<F extends { sId: string } = { sId: string; path: string; uploadUrl: string }>(
    actor: KeyHolder,
    body: Record<string, unknown> = {},
  ): Promise<F> {
    const res = await api(this.target, actor)
      .post(paths.files(actor.workspace.sId))
      .send({
        contentType: 'text/plain',
        fileName: 'notes.txt',
        fileSize: 1000,
        useCase: 'conversation',
        ...body,
      });
    return built(res, 'FileResponse').file as F;
  }
}

/**
 * Builds workspaces, members and keys through the application services, as the CLI would, and
 * everything else through the API.
 */
export class World extends ApiWorld {
  constructor(private readonly t: TestApp) {
    super(t);
  }

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

  /** How many conversations the trigger of this sId opened. */
  async conversationsOfTrigger(triggerSId: string): Promise<number> {
    const [{ n }] = await this.t.dataSource.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM conversations WHERE trigger_id = $1',
      [triggerSId],
    );
    return n;
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
export function api(target: Target, actor?: { secret: string }) {
  const agent = request(typeof target === 'string' ? target : target.http);
  const withKey = (test: request.Test) =>
    actor ? test.set('Authorization', `Bearer ${actor.secret}`) : test;
  return {
    get: (path: string) => withKey(agent.get(path)),
    post: (path: string) => withKey(agent.post(path)),
    patch: (path: string) => withKey(agent.patch(path)),
    delete: (path: string) => withKey(agent.delete(path)),
  };
}

/**
 * A conversation's events as a client reading its stream from the start (`?lastEventId=0`) gets
 * them: every event logged before the call, in order.
 */
export async function eventsOf<P = Record<string, unknown>>(
  t: TestApp,
  actor: KeyHolder,
  cId: string,
): Promise<StreamedEvent<P>[]> {
  // How many to wait for: the stream never says that it has caught up.
  const [{ n }] = await t.dataSource.query<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM conversation_events e JOIN conversations c ON c.id = e.conversation_id
     WHERE c.s_id = $1 AND e.type = ANY($2::text[])`,
    [cId, CONVERSATION_STREAM_TYPES],
  );
  const stream = await openSse(`${await t.listen()}${paths.stream(actor.workspace.sId, cId)}?lastEventId=0`, {
    Authorization: `Bearer ${actor.secret}`,
  });
  try {
    if (stream.status !== 200)
      throw new Error(`The stream answered ${stream.status}: ${await stream.body()}`);
    return (await stream.waitForEvents(n)).map(({ id, data }) => ({
      id,
      type: data.type as string,
      payload: data as P,
    }));
  } finally {
    stream.close();
  }
}
