import { ApiProperty } from '@nestjs/swagger';
import type {
  RemoteServerListing,
  RequireApproval,
  ToolServerListing,
} from 'src/modules/agents/application/catalogue.service';
import type { McpServerView, Skill } from 'src/modules/agents/domain/catalogue';
import { REQUIRE_APPROVAL_SCHEMA } from 'src/modules/agents/http/dto/agent.dto';

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
  @ApiProperty({ example: 'msv_4RbQ7yLm2P' }) sId!: string;
  @ApiProperty({ example: 'vlt_Qz81dVbXk3' }) spaceId!: string;
  @ApiProperty(REQUIRE_APPROVAL_SCHEMA) requireApproval!: RequireApproval;
}

export class McpServerViewView {
  @ApiProperty({ example: 'msv_4RbQ7yLm2P' }) sId!: string;
  @ApiProperty({ example: 'vlt_Qz81dVbXk3' }) spaceId!: string;
  @ApiProperty({ example: 'mcp_8MvZ3nQ1kT' }) mcpServerId!: string;
  @ApiProperty(REQUIRE_APPROVAL_SCHEMA) requireApproval!: RequireApproval;
  @ApiProperty({ example: 1767225600000 }) createdAt!: number;
}

export class RemoteToolView {
  @ApiProperty({ example: 'delete_record' }) name!: string;
  @ApiProperty({ example: 'Deletes a record.' }) description!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The JSON Schema of the arguments, as the server gave it.',
    example: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  })
  inputSchema!: Record<string, unknown>;
}

export class RemoteMcpServerView {
  @ApiProperty({ example: 'mcp_8MvZ3nQ1kT' }) sId!: string;
  @ApiProperty({ example: 'Ticketing' }) name!: string;
  @ApiProperty({ example: 'https://mcp.example.com/mcp' }) url!: string;
  @ApiProperty({ example: 'Opens, reads and closes support tickets.' }) description!: string;
  @ApiProperty({ description: 'Whether a shared secret is sent as Bearer (the secret is never shown).' })
  hasSharedSecret!: boolean;
  @ApiProperty({
    type: [RemoteToolView],
    description:
      'The tools the last synchronisation listed; none when it failed. They are offered to agents only ' +
      'while the last synchronisation succeeded.',
  })
  tools!: RemoteToolView[];
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 1767225600000,
    description: 'When the last synchronisation was tried (ms since the epoch), whatever its outcome.',
  })
  lastSyncedAt!: number | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: null,
    description: 'Why the last synchronisation failed; null when it succeeded.',
  })
  lastSyncError!: string | null;
  @ApiProperty({ example: 1767225600000 }) createdAt!: number;
  @ApiProperty({ type: [ServerViewView], description: 'The spaces the server is shared to.' })
  views!: ServerViewView[];
}

class InternalMcpServerView {
  @ApiProperty({ example: 'wake_ups' }) name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ description: 'Whether this service offers the server to runs.' }) available!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why it is not offered (ends with its code, e.g. `not_configured`); null when available.',
    example: null,
  })
  unavailableReason!: string | null;
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

export const presentServers = (listing: ToolServerListing): McpServersResponse => ({
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
