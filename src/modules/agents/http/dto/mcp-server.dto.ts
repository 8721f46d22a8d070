import { IsOptional, IsString, IsUrl, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { SID_PATTERN, SpaceParams, WorkspaceParams } from 'src/platform/http/route-params';
import {
  MCP_SERVER_DESCRIPTION_MAX,
  MCP_SERVER_NAME_MAX,
  MCP_SHARED_SECRET_MAX,
  RequireApproval,
} from 'src/modules/agents/domain/catalogue';
import { HTTP_URL } from 'src/platform/http/input-fields';
import { ApiRequireApproval } from 'src/modules/agents/application/views/catalogue.view';
import { IsRequireApproval } from 'src/modules/agents/http/require-approval';

export class CreateMcpServerDto {
  /**
   * Display name, used by toolset entries.
   * @example Ticketing
   */
  @IsString()
  @MinLength(1)
  @MaxLength(MCP_SERVER_NAME_MAX)
  @HumanName()
  name!: string;

  /**
   * An http(s) URL, spoken to with Streamable HTTP, else the older SSE transport. Refused when it is,
   * or resolves to, a loopback, private, link-local or otherwise non-public address, unless the
   * service runs with `MCP_ALLOW_PRIVATE_NETWORKS=true`, and when it carries a user name or password
   * (every member can read it; use `sharedSecret`).
   * @example https://mcp.example.com/mcp
   */
  @IsUrl(HTTP_URL)
  @MaxLength(2048)
  url!: string;

  /** @example "Opens, reads and closes support tickets." */
  @IsOptional()
  @IsString()
  @MaxLength(MCP_SERVER_DESCRIPTION_MAX)
  description?: string;

  /**
   * Sent as `Authorization: Bearer <sharedSecret>` on every request to the server. Stored, never
   * returned.
   * @example Zm9vYmFyYmF6cXV4
   */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MCP_SHARED_SECRET_MAX)
  @Matches(/^[\x21-\x7e]+$/, { message: 'sharedSecret must be printable ASCII without spaces' })
  sharedSecret?: string;
}

export class ShareMcpServerDto {
  /** @example mcp_8MvZ3nQ1kT */
  @IsString()
  @Matches(SID_PATTERN)
  mcpServerId!: string;

  @ApiRequireApproval({ required: false, default: 'never' })
  // Left out means "never"; an explicit null is refused like any other wrong type.
  @ValidateIf((_, value) => value !== undefined)
  @IsRequireApproval()
  requireApproval?: RequireApproval;
}

export class UpdateMcpServerViewDto {
  @ApiRequireApproval()
  @IsRequireApproval()
  requireApproval!: RequireApproval;
}

export class McpServerParams extends WorkspaceParams {
  /**
   * sId of the remote MCP server (`mcp_…`).
   * @example mcp_Rk3Wq8Zt5n
   */
  @IsString()
  id!: string;
}

export class McpServerViewParams extends SpaceParams {
  /**
   * sId of the server's view in the space (`msv_…`).
   * @example msv_Tp6Ys1Vb8c
   */
  @IsString()
  viewId!: string;
}
