import { describe, expect, it } from '@jest/globals';
import { RemoteServerWithViews, resolveToolset } from 'src/modules/agents/domain/toolset-resolution';

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

describe('resolveToolset', () => {
  it('resolves internal servers by name', () => {
    const { actions, skipped } = resolveToolset([{ name: 'find', mcpServerName: 'search' }], [], new Set());
    expect(skipped).toEqual([]);
    expect(actions).toEqual([
      expect.objectContaining({ name: 'find', internal: true, mcpServerName: 'search', spaceId: null }),
    ]);
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
