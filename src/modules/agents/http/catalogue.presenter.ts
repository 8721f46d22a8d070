import { ApiProperty } from '@nestjs/swagger';
import type { ToolServerListing } from 'src/modules/agents/application/catalogue.service';
import type { McpServerView, RemoteMcpServer, Skill } from 'src/modules/agents/domain/catalogue';

export class SkillView {
  @ApiProperty() sId!: string;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty() createdAt!: number;
}

export class SkillResponse {
  @ApiProperty({ type: SkillView }) skill!: SkillView;
}

export class SkillsResponse {
  @ApiProperty({ type: [SkillView] }) skills!: SkillView[];
}

class ServerViewView {
  @ApiProperty() sId!: string;
  @ApiProperty() spaceId!: string;
}

export class McpServerViewView {
  @ApiProperty() sId!: string;
  @ApiProperty() spaceId!: string;
  @ApiProperty() mcpServerId!: string;
  @ApiProperty() createdAt!: number;
}

export class RemoteMcpServerView {
  @ApiProperty() sId!: string;
  @ApiProperty() name!: string;
  @ApiProperty() url!: string;
  @ApiProperty() description!: string;
  @ApiProperty() createdAt!: number;
  @ApiProperty({ type: [ServerViewView], description: 'The spaces the server is shared to.' })
  views!: ServerViewView[];
}

class InternalMcpServerView {
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
}

export class McpServersResponse {
  @ApiProperty({ type: [InternalMcpServerView] }) internal!: InternalMcpServerView[];
  @ApiProperty({ type: [RemoteMcpServerView] }) remote!: RemoteMcpServerView[];
}

export class RemoteMcpServerResponse {
  @ApiProperty({ type: RemoteMcpServerView }) mcpServer!: RemoteMcpServerView;
}

export class McpServerViewResponse {
  @ApiProperty({ type: McpServerViewView }) mcpServerView!: McpServerViewView;
}

export const presentSkill = (skill: Skill): SkillView => ({
  sId: skill.sId,
  name: skill.name,
  description: skill.description,
  createdAt: skill.createdAt.getTime(),
});

export const presentRemoteServer = (
  server: RemoteMcpServer,
  views: { view: McpServerView; spaceSId: string }[],
): RemoteMcpServerView => ({
  sId: server.sId,
  name: server.name,
  url: server.url,
  description: server.description,
  createdAt: server.createdAt.getTime(),
  views: views.map(({ view, spaceSId }) => ({ sId: view.sId, spaceId: spaceSId })),
});

export const presentServers = (listing: ToolServerListing): McpServersResponse => ({
  internal: listing.internal.map(({ name, description }) => ({ name, description })),
  remote: listing.remote.map(({ server, views }) => presentRemoteServer(server, views)),
});

export const presentServerView = (
  view: McpServerView,
  spaceSId: string,
  serverSId: string,
): McpServerViewView => ({
  sId: view.sId,
  spaceId: spaceSId,
  mcpServerId: serverSId,
  createdAt: view.createdAt.getTime(),
});
