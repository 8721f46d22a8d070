import { describe, expect, it } from '@jest/globals';
import { AgentsConfig } from 'src/modules/agents/agents.config';
import { InternalServersService } from 'src/modules/agents/application/internal-servers.service';

const offered = (env: Record<string, string>) =>
  new InternalServersService(AgentsConfig.from(env))
    .list()
    .filter((server) => server.available)
    .map((server) => server.name);

describe('InternalServersService', () => {
  it('offers reasoning only with both a reasoning model and the openai provider', () => {
    const alwaysOffered = ['search', 'include_data', 'run_agent', 'wake_ups', 'triggers'];
    expect(offered({})).toEqual(alwaysOffered);
    expect(offered({ REASONING_MODEL_ID: 'o3-mini' })).toEqual(alwaysOffered);
    expect(offered({ OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' })).toEqual(alwaysOffered);
    expect(offered({ OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', REASONING_MODEL_ID: 'o3-mini' })).toEqual([
      'search',
      'include_data',
      'run_agent',
      'reasoning',
      'wake_ups',
      'triggers',
    ]);
  });

  it('says why a server is not offered, ending with its code', () => {
    const service = new InternalServersService(AgentsConfig.from({}));
    expect(service.unavailableReason('wake_ups')).toBeNull();
    expect(service.unavailableReason('search')).toBeNull();
    expect(service.unavailableReason('reasoning')).toBe(
      'The internal tool server "reasoning" is not configured on this service (not_configured).',
    );
    expect(service.unavailableReason('web_search_&_browse')).toMatch(/\(not_configured\)\.$/);
    expect(service.unavailableReason('Search')).toBe(
      'No internal tool server is named "Search" (unknown_server).',
    );
  });
});
