import type { ResolvedAction } from 'src/modules/agents/domain/agent-configuration';
import { InternalServer, findInternalServer } from 'src/modules/agents/domain/tool-catalogue';

export interface ToolsetEntry {
  name: string;
  description?: string;
  mcpServerName: string;
}

export interface RemoteServerWithViews {
  sId: string;
  name: string;
  description: string;
  views: { sId: string; spaceId: string; spaceKind: 'global' | 'regular' }[];
}

export interface SkippedAction {
  name: string;
  reason: string;
}

/**
 * The four toolset rules of endpoint 1: the entries replace the tool set; each resolves an
 * internal server by name or a remote server by display name; a remote server must be shared to
 * a space the caller can access and its name must be unambiguous; anything else is skipped. An
 * internal server this service does not offer is skipped with `unavailableReason`'s sentence.
 */
export function resolveToolset(
  entries: ToolsetEntry[],
  remoteServers: RemoteServerWithViews[],
  accessibleSpaceIds: ReadonlySet<string>,
  unavailableReason: (server: InternalServer) => string | null,
): { actions: ResolvedAction[]; skipped: SkippedAction[] } {
  const actions: ResolvedAction[] = [];
  const skipped: SkippedAction[] = [];
  for (const entry of entries) {
    const internal = findInternalServer(entry.mcpServerName);
    const remotes = remoteServers.filter((server) => server.name === entry.mcpServerName);
    if (internal && remotes.length === 0) {
      const reason = unavailableReason(internal);
      if (reason !== null) {
        skipped.push({ name: entry.name, reason });
        continue;
      }
      actions.push({
        type: 'mcp_server_configuration',
        name: entry.name,
        description: entry.description ?? internal.description,
        mcpServerName: internal.name,
        internal: true,
        mcpServerId: null,
        mcpServerViewId: null,
        spaceId: null,
      });
      continue;
    }
    if (remotes.length === 0) {
      skipped.push({
        name: entry.name,
        reason: `No tool server named "${entry.mcpServerName}" exists in this workspace.`,
      });
      continue;
    }
    if (remotes.length + (internal ? 1 : 0) > 1) {
      skipped.push({
        name: entry.name,
        reason: `The tool server name "${entry.mcpServerName}" is ambiguous: several servers of this workspace have it.`,
      });
      continue;
    }
    const [remote] = remotes;
    const reachable = remote.views
      .filter((view) => accessibleSpaceIds.has(view.spaceId))
      .sort((a, b) => (a.spaceKind === b.spaceKind ? 0 : a.spaceKind === 'global' ? -1 : 1));
    if (reachable.length === 0) {
      skipped.push({
        name: entry.name,
        reason: `The tool server "${entry.mcpServerName}" is not shared to the global space or to a space you can access.`,
      });
      continue;
    }
    actions.push({
      type: 'mcp_server_configuration',
      name: entry.name,
      description: entry.description ?? remote.description,
      mcpServerName: remote.name,
      internal: false,
      mcpServerId: remote.sId,
      mcpServerViewId: reachable[0].sId,
      spaceId: reachable[0].spaceId,
    });
  }
  return { actions, skipped };
}
