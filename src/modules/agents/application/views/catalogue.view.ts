import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type {
  RemoteServerListing,
  ToolServerListing,
} from 'src/modules/agents/application/catalogue.service';
import {
  REQUIRE_APPROVAL_TOOLS_MAX,
  TOOL_NAME_MAX,
  type McpServerView,
  type RemoteMcpServer,
  type RequireApproval,
  type Skill,
} from 'src/modules/agents/domain/catalogue';

/**
 * Documents `requireApproval`, in requests and answers: `"never"`, `"always"` or a list of tool
 * names, a union the Swagger plugin cannot express.
 */
export function ApiRequireApproval(options: Parameters<typeof ApiProperty>[0] = {}): PropertyDecorator {
  return ApiProperty({
    oneOf: [
      { type: 'string', enum: ['never', 'always'] },
      {
        type: 'array',
        items: { type: 'string', minLength: 1, maxLength: TOOL_NAME_MAX },
        minItems: 1,
        maxItems: REQUIRE_APPROVAL_TOOLS_MAX,
        uniqueItems: true,
      },
    ],
    description:
      "Which tools of the server wait for a user's approval before they run, when called through this " +
      'view: `"never"` (none), `"always"` (all), or the names of those that do, exactly as the server ' +
      'lists them. Names the server does not list (now) are kept, and match nothing until it lists them.',
    example: ['delete_record'],
    ...options,
  });
}

export class SkillView {
  sId!: string;
  name!: string;
  description!: string;
  createdAt!: number;
}

export class SkillResponse {
  skill!: SkillView;
}

export class SkillsResponse {
  skills!: SkillView[];
}

/** A space a remote server is shared to, through its view there. */
export class ServerViewView {
  /** @example msv_4RbQ7yLm2P */
  sId!: string;
  /** @example vlt_Qz81dVbXk3 */
  spaceId!: string;
  @ApiRequireApproval() requireApproval!: RequireApproval;
}

export class McpServerViewView {
  /** @example msv_4RbQ7yLm2P */
  sId!: string;
  /** @example vlt_Qz81dVbXk3 */
  spaceId!: string;
  /** @example mcp_8MvZ3nQ1kT */
  mcpServerId!: string;
  @ApiRequireApproval() requireApproval!: RequireApproval;
  /** @example 1767225600000 */
  createdAt!: number;
}

export class RemoteToolView {
  /** @example delete_record */
  name!: string;
  /** @example "Deletes a record." */
  description!: string;
  /**
   * The JSON Schema of the arguments, as the server gave it.
   * @example {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
   */
  inputSchema!: Record<string, unknown>;
}

export class RemoteMcpServerView {
  /** @example mcp_8MvZ3nQ1kT */
  sId!: string;
  /** @example Ticketing */
  name!: string;
  /** @example https://mcp.example.com/mcp */
  url!: string;
  /** @example "Opens, reads and closes support tickets." */
  description!: string;
  /** Whether a shared secret is sent as Bearer (the secret is never shown). */
  hasSharedSecret!: boolean;
  /**
   * The tools the last synchronisation listed; none when it failed. They are offered to agents only
   * while the last synchronisation succeeded.
   */
  tools!: RemoteToolView[];
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 1767225600000,
    description: 'When the last synchronisation was tried (ms since the epoch), whatever its outcome.',
  })
  lastSyncedAt!: number | null;
  /** Why the last synchronisation failed; null when it succeeded. */
  @ApiProperty({ example: null })
  lastSyncError!: string | null;
  /** @example 1767225600000 */
  createdAt!: number;
  /** The spaces the server is shared to. */
  views!: ServerViewView[];
}

export class InternalMcpServerView {
  /** @example wake_ups */
  name!: string;
  description!: string;
  /** Whether this service offers the server to runs. */
  available!: boolean;
  /** Why it is not offered (ends with its code, e.g. `not_configured`); null when available. */
  @ApiProperty({ example: null })
  unavailableReason!: string | null;
}

/** The tool servers a workspace knows: the internal catalogue and its remote servers. */
@ApiSchema({ name: 'McpServersResponse' })
export class McpServersView {
  internal!: InternalMcpServerView[];
  remote!: RemoteMcpServerView[];
}

export class RemoteMcpServerResponse {
  mcpServer!: RemoteMcpServerView;
}

export class McpServerViewResponse {
  mcpServerView!: McpServerViewView;
}

/** The server behind a space's view, in the fields of Dust's `MCPServerType` this service has. */
@ApiSchema({ name: 'ViewedServerSchema' })
export class ViewedServerView {
  /** @example mcp_8MvZ3nQ1kT */
  sId!: string;
  /** @example Ticketing */
  name!: string;
  /** @example "Opens, reads and closes support tickets." */
  description!: string;
  /** The tools its last synchronisation listed. */
  tools!: RemoteToolView[];
  /**
   * The version the server declared (`serverInfo.version`) at its last successful synchronisation,
   * at most 64 characters; empty when none did.
   * @example 1.4.0
   */
  version!: string;
  /** Dust's icon for a remote server */
  icon!: 'ActionCloudArrowLeftRightIcon';
  @ApiProperty({ enum: [true], description: 'Any number of remote servers may be added.' })
  allowMultipleInstances!: true;
  /** Remote servers are added by an admin: always `manual`. */
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
@ApiSchema({ name: 'ServerViewSchema' })
export class SpaceServerView {
  /** @example 12 */
  id!: number;
  /** @example msv_4RbQ7yLm2P */
  sId!: string;
  /** @example vlt_Qz81dVbXk3 */
  spaceId!: string;
  serverType!: 'remote';
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: "The view's own name; null: the server's name applies (views have none here).",
  })
  name!: null;
  @ApiProperty({ type: String, nullable: true, example: null }) description!: null;
  server!: ViewedServerView;
  @ApiRequireApproval() requireApproval!: RequireApproval;
  @ApiProperty({ type: String, nullable: true, example: null }) oAuthUseCase!: null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: null })
  editedByUser!: null;
  /** @example 1767225600000 */
  createdAt!: number;
  /** Its last change, of its approvals (ms). */
  updatedAt!: number;
}

export class ServerViewsResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  serverViews!: SpaceServerView[];
}

export const renderSkill = (skill: Skill): SkillView => ({
  sId: skill.sId,
  name: skill.name,
  description: skill.description,
  createdAt: skill.createdAt.getTime(),
});

export const renderRemoteServer = ({ server, views }: RemoteServerListing): RemoteMcpServerView => ({
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

export const renderServers = (listing: ToolServerListing): McpServersView => ({
  internal: listing.internal.map(({ name, description, available, unavailableReason }) => ({
    name,
    description,
    available,
    unavailableReason,
  })),
  remote: listing.remote.map(renderRemoteServer),
});

export const renderServerView = (
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

export const renderSpaceServerView = (
  spaceSId: string,
  { view, server }: { view: McpServerView; server: RemoteMcpServer },
): SpaceServerView => ({
  id: view.id,
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
    version: server.serverVersion ?? '',
    icon: 'ActionCloudArrowLeftRightIcon',
    allowMultipleInstances: true,
    availability: 'manual',
    authorization: null,
    documentationUrl: null,
  },
  requireApproval: view.requireApproval,
  oAuthUseCase: null,
  editedByUser: null,
  createdAt: view.createdAt.getTime(),
  updatedAt: view.updatedAt.getTime(),
});
