import { describe, expect, it } from '@jest/globals';
import {
  INTERNAL_MCP_SERVERS,
  InternalServer,
  internalServerUnavailableReason,
} from 'src/modules/agents/domain/tool-catalogue';
import {
  RemoteServerWithViews,
  ToolsetEntry,
  resolveToolset as resolveWith,
} from 'src/modules/agents/domain/toolset-resolution';

const crm: RemoteServerWithViews = {
  sId: 'mcp_crm',
  name: 'CRM',
  description: 'Customer records',
  views: [{ sId: 'msv_crm_sales', spaceId: 'vlt_sales', spaceKind: 'regular' }],
};
const wiki: RemoteServerWithViews = {
  sId: 'mcp_wiki',
  name: 'Wiki',
  description: 'Company wiki',
  views: [
    { sId: 'msv_wiki_sales', spaceId: 'vlt_sales', spaceKind: 'regular' },
    { sId: 'msv_wiki_global', spaceId: 'vlt_global', spaceKind: 'global' },
  ],
};
const twin = (sId: string): RemoteServerWithViews => ({
  sId,
  name: 'Twin',
  description: '',
  views: [{ sId: `msv_${sId}`, spaceId: 'vlt_global', spaceKind: 'global' }],
});

/** A service with no reasoning model: what works without outside services. */
const offeredHere = (server: InternalServer) => internalServerUnavailableReason(server, new Set());

const resolveToolset = (
  entries: ToolsetEntry[],
  remoteServers: RemoteServerWithViews[],
  accessibleSpaceIds: ReadonlySet<string>,
) => resolveWith(entries, remoteServers, accessibleSpaceIds, offeredHere);

describe('resolveToolset', () => {
  it('resolves internal servers by name', () => {
    const { actions, skipped } = resolveToolset([{ name: 'ask', mcpServerName: 'run_agent' }], [], new Set());
    expect(skipped).toEqual([]);
    expect(actions).toEqual([
      expect.objectContaining({ name: 'ask', internal: true, mcpServerName: 'run_agent', spaceId: null }),
    ]);
  });

  it('skips an internal server this service does not offer, with its reason, and keeps the others', () => {
    const { actions, skipped } = resolveToolset(
      [
        { name: 'tables', mcpServerName: 'query_tables' },
        { name: 'think', mcpServerName: 'reasoning' },
        { name: 'later', mcpServerName: 'wake_ups' },
      ],
      [],
      new Set(),
    );
    expect(actions.map((action) => action.mcpServerName)).toEqual(['wake_ups']);
    expect(skipped).toEqual([
      {
        name: 'tables',
        reason: 'The internal tool server "query_tables" is not configured on this service (not_configured).',
      },
      {
        name: 'think',
        reason: 'The internal tool server "reasoning" is not configured on this service (not_configured).',
      },
    ]);
  });

  it('offers an internal server once the service meets what it needs', () => {
    const { actions, skipped } = resolveWith(
      [{ name: 'think', mcpServerName: 'reasoning' }],
      [],
      new Set(),
      (server) => internalServerUnavailableReason(server, new Set(['reasoning_model'])),
    );
    expect(skipped).toEqual([]);
    expect(actions).toEqual([expect.objectContaining({ mcpServerName: 'reasoning', internal: true })]);
  });

  it('prefers the global view of a remote server the caller can reach', () => {
    const { actions } = resolveToolset(
      [{ name: 'w', mcpServerName: 'Wiki' }],
      [wiki],
      new Set(['vlt_global', 'vlt_sales']),
    );
    expect(actions[0]).toMatchObject({
      mcpServerId: 'mcp_wiki',
      mcpServerViewId: 'msv_wiki_global',
      spaceId: 'vlt_global',
    });
  });

  it('skips a remote server shared only to a space the caller is not in', () => {
    const { actions, skipped } = resolveToolset(
      [{ name: 'c', mcpServerName: 'CRM' }],
      [crm],
      new Set(['vlt_global']),
    );
    expect(actions).toEqual([]);
    expect(skipped).toEqual([{ name: 'c', reason: expect.stringContaining('not shared') }]);
  });

  it('skips unknown and ambiguous names without failing the others', () => {
    const { actions, skipped } = resolveToolset(
      [
        { name: 'x', mcpServerName: 'Nope' },
        { name: 't', mcpServerName: 'Twin' },
        { name: 'w', mcpServerName: 'Wiki' },
      ],
      [twin('mcp_a'), twin('mcp_b'), wiki],
      new Set(['vlt_global']),
    );
    expect(actions.map((a) => a.name)).toEqual(['w']);
    expect(skipped).toEqual([
      { name: 'x', reason: expect.stringContaining('No tool server') },
      { name: 't', reason: expect.stringContaining('ambiguous') },
    ]);
  });

  it('treats a remote server named like an internal one as ambiguous', () => {
    const clash = { ...twin('mcp_c'), name: 'search' };
    const { skipped } = resolveToolset(
      [{ name: 's', mcpServerName: 'search' }],
      [clash],
      new Set(['vlt_global']),
    );
    expect(skipped[0].reason).toContain('ambiguous');
  });
});

describe('the internal catalogue', () => {
  it('offers search, include_data, run_agent, wake_ups and triggers with no outside service, and nothing that needs one', () => {
    const offered = INTERNAL_MCP_SERVERS.filter((server) => offeredHere(server) === null);
    expect(offered.map((server) => server.name)).toEqual([
      'search',
      'include_data',
      'run_agent',
      'wake_ups',
      'triggers',
    ]);
  });
});
