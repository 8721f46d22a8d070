/** GET the agent list with every available with* flag over 500 agents of one workspace. */
const { bootstrap, load, seed } = require('../harness');

const AGENTS = 500;
/** 27 req/s before the list read in a constant number of statements (10 then, 5 now). */
const TARGET_RPS = 35;

module.exports = {
  name: 'list-agents',
  async run({ service }) {
    const { workspace, apiKey } = await bootstrap(service, 'List agents bench');
    const [wId, secret] = [workspace.sId, apiKey.secret];
    const headers = { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' };
    await seed(AGENTS, 8, (i) => ({
      url: `${service.baseUrl}/api/w/${wId}/assistant/agent_configurations`,
      init: {
        method: 'POST',
        headers,
        body: JSON.stringify({
          assistant: {
            name: `bench-agent-${i}`,
            description: 'Benchmark agent',
            instructions: 'Answer briefly.',
            scope: 'visible',
            model: { providerId: 'local', modelId: 'local-1', temperature: 0.5 },
            tags: [{ name: `tag-${i % 20}` }],
          },
        }),
      },
    }));
    const url = `${service.baseUrl}/api/w/${wId}/assistant/agent_configurations?view=list&withAuthors=true&withEditors=true&withUsage=true&withFeedbacks=true`;
    const answer = await fetch(url, { headers: { Authorization: `Bearer ${secret}` } });
    if (!answer.ok) throw new Error(`Listing the agents failed: ${answer.status} ${await answer.text()}`);
    const kilobytes = Math.round((await answer.arrayBuffer()).byteLength / 1024);
    const result = await load({ url, headers: { Authorization: `Bearer ${secret}` }, connections: 8 });
    const failed = result.rps < TARGET_RPS;
    return [
      {
        scenario: `list agents (${AGENTS + 2}, all with* flags)`,
        ...result,
        failed,
        note: `8 connections; ${kilobytes} KB an answer; target ≥ ${TARGET_RPS} req/s${failed ? ' — MISSED' : ''}`,
      },
    ];
  },
};
