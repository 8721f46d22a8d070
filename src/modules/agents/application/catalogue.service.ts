import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { ConflictError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { generatePrefixedSId } from 'src/platform/ids/sid';
import { checkName } from 'src/platform/text/names';
import { SpacesService } from 'src/modules/identity/identity.api';
import {
  InternalServerAvailability,
  InternalServersService,
} from 'src/modules/agents/application/internal-servers.service';
import { CatalogueRepository } from 'src/modules/agents/application/ports/catalogue.repository';
import { ToolServerSyncService } from 'src/modules/agents/application/tool-server-sync.service';
import {
  type McpServerView,
  type RemoteMcpServer,
  type RequireApproval,
  type Skill,
  MCP_SERVER_NAME_MAX,
  SKILL_NAME_MAX,
  remoteServerUrlProblem,
} from 'src/modules/agents/domain/catalogue';
import type { RemoteServerWithViews } from 'src/modules/agents/domain/toolset-resolution';
import { DomainError } from 'src/platform/errors/domain-error';

/** A remote server with the spaces it is shared to, as the routes present it. */
export interface RemoteServerListing {
  server: RemoteMcpServer;
  views: { view: McpServerView; spaceSId: string }[];
}

/** What the listing needs of a space: its row id, to match views, and its sId. */
interface SpaceIds {
  id: number;
  sId: string;
}

export interface ToolServerListing {
  internal: InternalServerAvailability[];
  remote: RemoteServerListing[];
}

@Injectable()
export class CatalogueService {
  constructor(
    private readonly catalogue: CatalogueRepository,
    private readonly spaces: SpacesService,
    private readonly toolSync: ToolServerSyncService,
    private readonly internalServers: InternalServersService,
  ) {}

  async createSkill(caller: Caller, input: { name: string; description: string }): Promise<Skill> {
    const name = checkName('name', input.name, SKILL_NAME_MAX);
    if (await this.catalogue.skillNameTaken(caller.workspaceId, name)) {
      throw new ConflictError(`A skill named "${name}" already exists in this workspace.`);
    }
    return this.catalogue.createSkill(
      caller.workspaceId,
      generatePrefixedSId('skl'),
      name,
      input.description.trim(),
    );
  }

  listSkills(caller: Caller): Promise<Skill[]> {
    return this.catalogue.listSkills(caller.workspaceId);
  }

  /**
   * Registers a remote server with the tools it lists now. An address that is not allowed is
   * refused and nothing is stored; an unreachable server is stored with its error and no tools.
   */
  async createRemoteServer(
    caller: Caller,
    input: { name: string; url: string; description?: string; sharedSecret?: string },
  ): Promise<RemoteMcpServer> {
    const name = checkName('name', input.name, MCP_SERVER_NAME_MAX);
    const urlProblem = remoteServerUrlProblem(input.url);
    if (urlProblem) throw new InvalidRequestError(urlProblem);
    const sharedSecret = input.sharedSecret ?? null;
    const { sync, forbiddenAddress } = await this.toolSync.listTools({ url: input.url, sharedSecret });
    if (forbiddenAddress) throw new InvalidRequestError(`url: ${sync.lastSyncError}`);
    return this.catalogue.createRemoteServer({
      workspaceId: caller.workspaceId,
      sId: generatePrefixedSId('mcp'),
      name,
      url: input.url,
      description: input.description?.trim() ?? '',
      sharedSecret,
      ...sync,
    });
  }

  /** One remote server of the caller's workspace with the spaces it is shared to. */
  async getRemoteServer(caller: Caller, sId: string): Promise<RemoteServerListing> {
    const server = await this.findRemoteServer(caller, sId);
    return this.withViews(caller, server);
  }

  /** Connects again and replaces the stored tools with what the server lists now (or its error). */
  async syncRemoteServer(caller: Caller, sId: string): Promise<RemoteServerListing> {
    const server = await this.findRemoteServer(caller, sId);
    const { sync } = await this.toolSync.listTools({ url: server.url, sharedSecret: server.sharedSecret });
    const saved = await this.catalogue.saveSync(caller.workspaceId, server.id, sync);
    if (!saved) throw serverNotFound(sId);
    return this.withViews(caller, saved);
  }

  private async findRemoteServer(caller: Caller, sId: string): Promise<RemoteMcpServer> {
    const server = await this.catalogue.findRemoteServer(caller.workspaceId, sId);
    if (!server) throw serverNotFound(sId);
    return server;
  }

  private async withViews(caller: Caller, server: RemoteMcpServer): Promise<RemoteServerListing> {
    const [views, spaces] = await Promise.all([
      this.catalogue.listViews(caller.workspaceId),
      this.spaces.listAll(caller),
    ]);
    const spaceSIds = new Map(spaces.map((space) => [space.id, space.sId]));
    return {
      server,
      views: views
        .filter((view) => view.mcpServerId === server.id)
        .map((view) => ({ view, spaceSId: spaceSIds.get(view.spaceId) ?? '' })),
    };
  }

  /** The internal catalogue and every remote server with the spaces it is shared to. */
  async listServers(caller: Caller): Promise<ToolServerListing> {
    return this.listing(caller, await this.spaces.listAll(caller));
  }

  private async listing(caller: Caller, spaces: SpaceIds[]): Promise<ToolServerListing> {
    const [servers, views] = await Promise.all([
      this.catalogue.listRemoteServers(caller.workspaceId),
      this.catalogue.listViews(caller.workspaceId),
    ]);
    const spaceSIds = new Map(spaces.map((space) => [space.id, space.sId]));
    return {
      internal: this.internalServers.list(),
      remote: servers.map((server) => ({
        server,
        views: views
          .filter((view) => view.mcpServerId === server.id)
          .map((view) => ({ view, spaceSId: spaceSIds.get(view.spaceId) ?? '' })),
      })),
    };
  }

  /** Remote servers with their views, as the toolset rules need them. */
  async remoteServersWithViews(caller: Caller): Promise<RemoteServerWithViews[]> {
    const spaces = await this.spaces.listAll(caller);
    const listing = await this.listing(caller, spaces);
    const kinds = new Map(spaces.map((space) => [space.sId, space.kind]));
    return listing.remote.map(({ server, views }) => ({
      sId: server.sId,
      name: server.name,
      description: server.description,
      views: views.map(({ view, spaceSId }) => ({
        sId: view.sId,
        spaceId: spaceSId,
        spaceKind: kinds.get(spaceSId) ?? 'regular',
      })),
    }));
  }

  /** The views of a space the caller can access, each with its server (404 for any other space). */
  async listSpaceViews(
    caller: Caller,
    spaceSId: string,
  ): Promise<{ view: McpServerView; server: RemoteMcpServer }[]> {
    const space = await this.spaces.findAccessible(caller, spaceSId);
    const [views, servers] = await Promise.all([
      this.catalogue.listViews(caller.workspaceId),
      this.catalogue.listRemoteServers(caller.workspaceId),
    ]);
    const byId = new Map(servers.map((server) => [server.id, server]));
    return views.flatMap((view) => {
      const server = byId.get(view.mcpServerId);
      return view.spaceId === space.id && server ? [{ view, server }] : [];
    });
  }

  async share(
    caller: Caller,
    spaceSId: string,
    input: { mcpServerId: string; requireApproval?: RequireApproval },
  ): Promise<{ view: McpServerView; server: RemoteMcpServer }> {
    const space = await this.spaces.findInWorkspace(caller, spaceSId);
    const server = await this.findRemoteServer(caller, input.mcpServerId);
    const view = await this.catalogue.createView(caller.workspaceId, {
      sId: generatePrefixedSId('msv'),
      mcpServerId: server.id,
      spaceId: space.id,
      requireApproval: input.requireApproval ?? 'never',
    });
    return { view, server };
  }

  /** Changes which of the view's tools wait for approval; calls already waiting keep waiting. */
  async setRequireApproval(
    caller: Caller,
    spaceSId: string,
    viewSId: string,
    requireApproval: RequireApproval,
  ): Promise<{ view: McpServerView; server: RemoteMcpServer | undefined }> {
    const space = await this.spaces.findInWorkspace(caller, spaceSId);
    const found = await this.catalogue.findView(caller.workspaceId, space.id, viewSId);
    const view =
      found && (await this.catalogue.updateViewApproval(caller.workspaceId, found.id, requireApproval));
    if (!view) throw viewNotFound(viewSId);
    const servers = await this.catalogue.listRemoteServers(caller.workspaceId);
    return { view, server: servers.find((server) => server.id === view.mcpServerId) };
  }

  async unshare(
    caller: Caller,
    spaceSId: string,
    viewSId: string,
  ): Promise<{ view: McpServerView; server: RemoteMcpServer | undefined }> {
    const space = await this.spaces.findInWorkspace(caller, spaceSId);
    const view = await this.catalogue.findView(caller.workspaceId, space.id, viewSId);
    if (!view) throw viewNotFound(viewSId);
    await this.catalogue.deleteView(caller.workspaceId, view.id);
    const servers = await this.catalogue.listRemoteServers(caller.workspaceId);
    return { view, server: servers.find((server) => server.id === view.mcpServerId) };
  }
}

const serverNotFound = (sId: string) => new DomainError('not_found', `Tool server ${sId} not found.`);
const viewNotFound = (sId: string) =>
  new DomainError('not_found', `Tool server view ${sId} not found in this space.`);
