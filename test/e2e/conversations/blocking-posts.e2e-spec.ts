import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { ListedMessage, World, WorkspaceFixture, api } from 'test/support/world';

const WORKSPACES = 3;
const CONVERSATIONS_PER_WORKSPACE = 4;
const POSTS_PER_CONVERSATION = 3;
const POSTS = WORKSPACES * CONVERSATIONS_PER_WORKSPACE * POSTS_PER_CONVERSATION;

describe('blocking posts under load', () => {
  let t: TestApp;
  let world: World;

  beforeAll(async () => {
    // One run at a time, each streaming for a while: the later answers wait for the slot longer
    // than the 10 s a non-blocking post waits for its agent message to exist.
    t = await createTestApp({ env: { RUN_CONCURRENCY: 1, LOCAL_MODEL_CHUNK_DELAY_MS: 30 } });
    world = new World(t);
  });
  afterAll(() => t?.close());

  it('answers each of the blocking posts sent at once with its agent message done, however long it queued', async () => {
    const workspaces: WorkspaceFixture[] = [];
    for (let i = 0; i < WORKSPACES; i++) workspaces.push(await world.workspace());
    const targets = await Promise.all(
      workspaces.map(async (fixture) => {
        const agent = await world.agent(fixture.admin, { instructions: 'Answer briefly.', actions: [] });
        const conversations: string[] = [];
        for (let i = 0; i < CONVERSATIONS_PER_WORKSPACE; i++)
          conversations.push((await world.conversation(fixture.admin, { title: `Load ${i}` })).sId);
        return { fixture, agent: agent.sId, conversations };
      }),
    );

    const posts = targets.flatMap(({ fixture, agent, conversations }) =>
      conversations.flatMap((cId) =>
        Array.from({ length: POSTS_PER_CONVERSATION }, (_, n) => ({ fixture, agent, cId, n })),
      ),
    );
    expect(posts).toHaveLength(POSTS);
    const answered = await Promise.all(
      posts.map(async ({ fixture, agent, cId, n }) => {
        const res = await api(t, fixture.admin)
          .post(`/api/v1/w/${fixture.workspace.sId}/assistant/conversations/${cId}/messages`)
          .send({
            content: `Question ${n}`,
            mentions: [{ configurationId: agent }],
            context: { username: 'ada', timezone: 'UTC' },
            blocking: true,
          })
          .expect(200);
        const posted = res.body.message as { sId: string };
        // Read as soon as the post came back: a blocking post returns once its answer is done.
        const listed = await api(t, fixture.admin)
          .get(paths.messages(fixture.workspace.sId, cId))
          .expect(200);
        const answer = (listed.body.messages as ListedMessage[]).find(
          (message) => message.type === 'agent_message' && message.parentMessageId === posted.sId,
        );
        return answer?.status ?? 'no agent message';
      }),
    );
    const outcomes = answered.reduce<Record<string, number>>((counts, status) => {
      counts[status] = (counts[status] ?? 0) + 1;
      return counts;
    }, {});
    expect(outcomes).toEqual({ succeeded: POSTS });
  });
});
