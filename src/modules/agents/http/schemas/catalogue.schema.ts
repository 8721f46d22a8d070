import { ApiProperty } from '@nestjs/swagger';
import type * as views from 'src/modules/agents/application/views/catalogue.view';
import type { RequireApproval } from 'src/modules/agents/domain/catalogue';
import { ApiRequireApproval } from 'src/modules/agents/http/require-approval';

export class SkillView implements views.SkillView {
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

export class ServerViewView implements views.ServerViewView {
  /** @example msv_4RbQ7yLm2P */
  sId!: string;
  /** @example vlt_Qz81dVbXk3 */
  spaceId!: string;
  @ApiRequireApproval() requireApproval!: RequireApproval;
}

export class McpServerViewView implements views.McpServerViewView {
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

export class RemoteToolView implements views.RemoteToolView {
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

export class RemoteMcpServerView implements views.RemoteMcpServerView {
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

export class InternalMcpServerView implements views.InternalMcpServerView {
  /** @example wake_ups */
  name!: string;
  description!: string;
  /** Whether this service offers the server to runs. */
  available!: boolean;
  /** Why it is not offered (ends with its code, e.g. `not_configured`); null when available. */
  @ApiProperty({ example: null })
  unavailableReason!: string | null;
}

export class McpServersResponse implements views.McpServersView {
  internal!: InternalMcpServerView[];
  remote!: RemoteMcpServerView[];
}

export class RemoteMcpServerResponse {
  mcpServer!: RemoteMcpServerView;
}

export class McpServerViewResponse {
  mcpServerView!: McpServerViewView;
}
