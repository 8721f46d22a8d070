import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { ConflictError } from 'src/platform/errors/domain-error';
import { generatePrefixedSId } from 'src/platform/ids/sid';
import { SpacesService } from 'src/modules/identity/application/spaces.service';
import { CatalogueRepository } from 'src/modules/agents/application/ports/catalogue.repository';
import type { McpServerView, RemoteMcpServer, Skill } from 'src/modules/agents/domain/catalogue';
import { INTERNAL_MCP_SERVERS } from 'src/modules/agents/domain/tool-catalogue';
import type { RemoteServerWithViews } from 'src/modules/agents/domain/toolset-resolution';
import { DomainError } from 'src/platform/errors/domain-error';

/** What the listing needs of a space: its row id, to match views, and its sId. */
interface SpaceIds {
  id: number;
  sId: string;
}

export interface ToolServerListing {
  internal: typeof INTERNAL_MCP_SERVERS;
  remote: { server: RemoteMcpServer; views: { view: McpServerView; spaceSId: string }[] }[];
}

@Injectable()
export class CatalogueService {
  constructor(
    private readonly catalogue: CatalogueRepository,
    private readonly spaces: SpacesService,
  ) {}

  async createSkill(caller: Caller, input: { name: string; description: string }): Promise<Skill> {
    const name = input.name.trim();
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

  createRemoteServer(
    caller: Caller,
    input: { name: string; url: string; description?: string },
  ): Promise<RemoteMcpServer> {
    return this.catalogue.createRemoteServer({
      workspaceId: caller.workspaceId,
      sId: generatePrefixedSId('mcp'),
      name: input.name.trim(),
      url: input.url,
      description: input.description?.trim() ?? '',
    });
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
      internal: INTERNAL_MCP_SERVERS,
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

  async share(
    caller: Caller,
    spaceSId: string,
    mcpServerSId: string,
  ): Promise<{ view: McpServerView; server: RemoteMcpServer }> {
    const space = await this.spaces.findInWorkspace(caller, spaceSId);
    const server = await this.catalogue.findRemoteServer(caller.workspaceId, mcpServerSId);
    if (!server) throw new DomainError('not_found', `Tool server ${mcpServerSId} not found.`);
    const view = await this.catalogue.createView(
      caller.workspaceId,
      generatePrefixedSId('msv'),
      server.id,
      space.id,
    );
    return { view, server };
  }

  async unshare(
    caller: Caller,
    spaceSId: string,
    viewSId: string,
  ): Promise<{ view: McpServerView; server: RemoteMcpServer | undefined }> {
    const space = await this.spaces.findInWorkspace(caller, spaceSId);
    const view = await this.catalogue.findView(caller.workspaceId, space.id, viewSId);
    if (!view) throw new DomainError('not_found', `Tool server view ${viewSId} not found in this space.`);
    await this.catalogue.deleteView(caller.workspaceId, view.id);
    const servers = await this.catalogue.listRemoteServers(caller.workspaceId);
    return { view, server: servers.find((server) => server.id === view.mcpServerId) };
  }
}
