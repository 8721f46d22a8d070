import { ApiProperty } from '@nestjs/swagger';
import type { McpServerView, RemoteMcpServer, RequireApproval } from 'src/modules/agents/domain/catalogue';
import { RemoteToolView } from 'src/modules/agents/http/catalogue.presenter';
import { REQUIRE_APPROVAL_SCHEMA } from 'src/modules/agents/http/dto/agent.dto';

class ViewedServerSchema {
  @ApiProperty({ example: 'mcp_8MvZ3nQ1kT' }) sId!: string;
  @ApiProperty({ example: 'Ticketing' }) name!: string;
  @ApiProperty({ example: 'Opens, reads and closes support tickets.' }) description!: string;
  @ApiProperty({ type: [RemoteToolView], description: 'The tools its last synchronisation listed.' })
  tools!: RemoteToolView[];
  @ApiProperty({ enum: ['manual'], description: 'Remote servers are added by an admin: always `manual`.' })
  availability!: 'manual';
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: null,
    description: 'No OAuth here: always null.',
  })
  authorization!: null;
  @ApiProperty({ type: String, nullable: true, example: null }) documentationUrl!: null;
}

/** A tool server as a space shows it, in the fields of Dust's `MCPServerViewType` this service has. */
export class ServerViewSchema {
  @ApiProperty({ example: 'msv_4RbQ7yLm2P' }) sId!: string;
  @ApiProperty({ example: 'vlt_Qz81dVbXk3' }) spaceId!: string;
  @ApiProperty({ enum: ['remote'] }) serverType!: 'remote';
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: "The view's own name; null: the server's name applies (views have none here).",
  })
  name!: null;
  @ApiProperty({ type: String, nullable: true, example: null }) description!: null;
  @ApiProperty({ type: ViewedServerSchema }) server!: ViewedServerSchema;
  @ApiProperty(REQUIRE_APPROVAL_SCHEMA) requireApproval!: RequireApproval;
  @ApiProperty({ type: String, nullable: true, example: null }) oAuthUseCase!: null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: null })
  editedByUser!: null;
  @ApiProperty({ example: 1767225600000 }) createdAt!: number;
}

export class ServerViewsResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty({ type: [ServerViewSchema] }) serverViews!: ServerViewSchema[];
}

export const presentSpaceServerView = (
  spaceSId: string,
  { view, server }: { view: McpServerView; server: RemoteMcpServer },
): ServerViewSchema => ({
  sId: view.sId,
  spaceId: spaceSId,
  serverType: 'remote',
  name: null,
  description: null,
  server: {
    sId: server.sId,
    name: server.name,
    description: server.description,
    tools: server.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    availability: 'manual',
    authorization: null,
    documentationUrl: null,
  },
  requireApproval: view.requireApproval,
  oAuthUseCase: null,
  editedByUser: null,
  createdAt: view.createdAt.getTime(),
});
