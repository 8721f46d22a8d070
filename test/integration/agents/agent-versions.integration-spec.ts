import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { AgentCommandsService } from 'src/modules/agents/application/agent-commands.service';
import { AgentQueriesService } from 'src/modules/agents/application/agent-queries.service';
import { workspaceOf } from 'test/integration/members';
import { expect } from 'test/support/expect';
import { type TestModule, createTestModule } from 'test/support/test-app';

describe("agents' versions, on the real repositories", () => {
  let module: TestModule;
  let commands: AgentCommandsService;
  let queries: AgentQueriesService;

  beforeAll(async () => {
    module = await createTestModule();
    commands = module.get(AgentCommandsService);
    queries = module.get(AgentQueriesService);
  });
  afterAll(() => module.close());

  it('makes a new version per change, newest first in the history, the older ones archived', async () => {
    const { admin, agent } = await workspaceOf(module);
    const created = await agent(admin, 'writer');
    expect(created.agent).toMatchObject({ name: 'writer', version: 0, status: 'active' });
    await commands.update(admin, created.agent.sId, { instructions: 'Be thorough.' });
    const { details } = await commands.update(admin, created.agent.sId, { description: 'Writes' });
    expect(details.agent).toMatchObject({ version: 2, instructions: 'Be thorough.', description: 'Writes' });

    const history = await queries.history(admin, created.agent.sId, 10);
    expect(history.map(({ agent: version }) => [version.version, version.status])).toEqual([
      [2, 'active'],
      [1, 'archived'],
      [0, 'archived'],
    ]);
    expect((await queries.get(admin, created.agent.sId)).agent.version).toBe(2);
  });

  it('keeps the version when only a favourite changes', async () => {
    const { admin, agent } = await workspaceOf(module);
    const created = await agent(admin);
    const { details } = await commands.update(admin, created.agent.sId, { userFavorite: true });
    expect(details).toMatchObject({ userFavorite: true, agent: { version: 0 } });
    expect(await queries.history(admin, created.agent.sId, 10)).toHaveLength(1);
  });

  it('gives two concurrent changes two versions, one after the other', async () => {
    const { admin, agent } = await workspaceOf(module);
    const created = await agent(admin);
    await Promise.all([
      commands.update(admin, created.agent.sId, { description: 'One' }),
      commands.update(admin, created.agent.sId, { instructions: 'Two' }),
    ]);
    const history = await queries.history(admin, created.agent.sId, 10);
    expect(history.map(({ agent: version }) => version.version)).toEqual([2, 1, 0]);
    expect(history[0].agent).toMatchObject({ description: 'One', instructions: 'Two' });
  });

  it('refuses a change of an archived agent', async () => {
    const { admin, agent } = await workspaceOf(module);
    const created = await agent(admin);
    await commands.archive(admin, created.agent.sId);
    await expect(commands.update(admin, created.agent.sId, { description: 'Late' })).rejects.toThrow();
    expect((await queries.get(admin, created.agent.sId)).agent.status).toBe('archived');
  });
});
