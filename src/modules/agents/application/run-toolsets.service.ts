import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import type { McpToolDescriptor, RemoteMcpTarget } from 'src/platform/mcp/mcp-session';
import { SpacesService } from 'src/modules/identity/identity.api';
import { CatalogueRepository } from 'src/modules/agents/application/ports/catalogue.repository';
import type { ResolvedAction } from 'src/modules/agents/domain/agent-configuration';
import type { McpServerView, RemoteMcpServer, RequireApproval } from 'src/modules/agents/domain/catalogue';

/**
 * A toolset entry as a run may use it now, for its caller. `name` is the server's name as the
 * toolset names it. A remote server is offered only while it exists, is shared to a space the
 * caller can access (the action's view first, else any such view, whose `requireApproval`
 * applies) and its last synchronisation succeeded; otherwise it is `unavailable`, with why.
 */
export type RunToolServer =
  | { kind: 'internal'; name: string }
  | {
      kind: 'remote';
      name: string;
      mcpServerSId: string;
      target: RemoteMcpTarget;
      tools: McpToolDescriptor[];
      requireApproval: RequireApproval;
    }
  | { kind: 'unavailable'; name: string; reason: string };

/** What a run may call of its agent's toolset, resolved for the run's caller when it starts. */
@Injectable()
export class RunToolsetsService {
  constructor(
    private readonly catalogue: CatalogueRepository,
    private readonly spaces: SpacesService,
  ) {}

  /** The toolset's servers as a run of `caller` may use them now (see `RunToolServer`). */
  async resolve(caller: Caller, actions: ResolvedAction[]): Promise<RunToolServer[]> {
    const entries = actions.filter((action) => action.type === 'mcp_server_configuration');
    const remoteSIds = [
      ...new Set(
        entries.flatMap((action) => (action.internal || !action.mcpServerId ? [] : [action.mcpServerId])),
      ),
    ];
    if (remoteSIds.length === 0)
      return entries.map((action) => ({ kind: 'internal', name: action.mcpServerName }));
    const [servers, spaces] = await Promise.all([
      this.catalogue.findRemoteServersWithViews(caller.workspaceId, remoteSIds),
      this.spaces.listAccessible(caller),
    ]);
    const accessible = new Set(spaces.map((space) => space.id));
    const bySId = new Map(servers.map((entry) => [entry.server.sId, entry]));
    return entries.map((action): RunToolServer => {
      const name = action.mcpServerName;
      if (action.internal) return { kind: 'internal', name };
      const found = action.mcpServerId ? bySId.get(action.mcpServerId) : undefined;
      if (!found) return { kind: 'unavailable', name, reason: `The tool server "${name}" no longer exists.` };
      const views = found.views.filter((view) => accessible.has(view.spaceId));
      const view = views.find((candidate) => candidate.sId === action.mcpServerViewId) ?? views[0];
      if (!view) {
        const reason = `The tool server "${name}" is no longer shared to a space you can access.`;
        return { kind: 'unavailable', name, reason };
      }
      return usableServer(name, found.server, view);
    });
  }

  /**
   * The servers of tool server views a message selected (Dust's `selectedMCPServerViewIds`), as a
   * run of `caller` may use them now: a view outside the spaces the caller can access offers nothing.
   */
  async selected(caller: Caller, viewSIds: string[]): Promise<RunToolServer[]> {
    if (viewSIds.length === 0) return [];
    const [views, servers, spaces] = await Promise.all([
      this.catalogue.listViews(caller.workspaceId),
      this.catalogue.listRemoteServers(caller.workspaceId),
      this.spaces.listAccessible(caller),
    ]);
    const accessible = new Set(spaces.map((space) => space.id));
    const serversById = new Map(servers.map((server) => [server.id, server]));
    return [...new Set(viewSIds)].map((sId): RunToolServer => {
      const view = views.find((candidate) => candidate.sId === sId && accessible.has(candidate.spaceId));
      const server = view && serversById.get(view.mcpServerId);
      if (!view || !server) {
        const reason = `The tool server view "${sId}" is not in a space you can access.`;
        return { kind: 'unavailable', name: sId, reason };
      }
      return usableServer(server.name, server, view);
    });
  }
}

/** A server through one of its views, or why a run cannot use it (never synchronised, or failed to). */
function usableServer(name: string, server: RemoteMcpServer, view: McpServerView): RunToolServer {
  if (server.lastSyncedAt === null) {
    const reason = `The tool server "${name}" has not been synchronised yet; an admin can sync it.`;
    return { kind: 'unavailable', name, reason };
  }
  if (server.lastSyncError !== null) {
    const reason = `The tool server "${name}" failed its last synchronisation: ${server.lastSyncError}`;
    return { kind: 'unavailable', name, reason };
  }
  return {
    kind: 'remote',
    name,
    mcpServerSId: server.sId,
    target: { url: server.url, sharedSecret: server.sharedSecret },
    tools: server.tools,
    requireApproval: view.requireApproval,
  };
}
