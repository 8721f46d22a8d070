import type {
  RemoteServerListing,
  ToolServerListing,
} from 'src/modules/agents/application/catalogue.service';
import type {
  McpServersView,
  McpServerViewView,
  RemoteMcpServerView,
  SkillView,
} from 'src/modules/agents/application/views/catalogue.view';
import type { McpServerView, Skill } from 'src/modules/agents/domain/catalogue';

export const presentSkill = (skill: Skill): SkillView => ({
  sId: skill.sId,
  name: skill.name,
  description: skill.description,
  createdAt: skill.createdAt.getTime(),
});

export const presentRemoteServer = ({ server, views }: RemoteServerListing): RemoteMcpServerView => ({
  sId: server.sId,
  name: server.name,
  url: server.url,
  description: server.description,
  hasSharedSecret: server.sharedSecret !== null,
  tools: server.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  lastSyncedAt: server.lastSyncedAt?.getTime() ?? null,
  lastSyncError: server.lastSyncError,
  createdAt: server.createdAt.getTime(),
  views: views.map(({ view, spaceSId }) => ({
    sId: view.sId,
    spaceId: spaceSId,
    requireApproval: view.requireApproval,
  })),
});

export const presentServers = (listing: ToolServerListing): McpServersView => ({
  internal: listing.internal.map(({ name, description, available, unavailableReason }) => ({
    name,
    description,
    available,
    unavailableReason,
  })),
  remote: listing.remote.map(presentRemoteServer),
});

export const presentServerView = (
  view: McpServerView,
  spaceSId: string,
  serverSId: string,
): McpServerViewView => ({
  sId: view.sId,
  spaceId: spaceSId,
  mcpServerId: serverSId,
  requireApproval: view.requireApproval,
  createdAt: view.createdAt.getTime(),
});
