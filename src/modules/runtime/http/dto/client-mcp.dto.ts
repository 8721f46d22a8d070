import { IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { JsonBodyLimit } from 'src/platform/http/json-body-parser';
import { SID_PATTERN } from 'src/platform/http/route-params';
import { McpConfig } from 'src/platform/mcp/mcp.config';

export class RegisterClientServerDto {
  /**
   * The name the agent's tools are listed under: 5 to 30 characters, no control, invisible or
   * bidirectional character.
   * @example "my-laptop-files"
   */
  @IsString()
  @MaxLength(200)
  serverName!: string;
}

export class ClientServerDto {
  /**
   * The id `mcp/register` answered.
   * @example "cS7mQ2pL9x"
   */
  @IsString()
  @Matches(SID_PATTERN, { message: 'serverId must be a server id as mcp/register answers it.' })
  serverId!: string;
}

/** An answer may carry a whole tool output: it is read up to `MCP_MESSAGE_MAX_BYTES`, as a remote server's. */
@JsonBodyLimit(McpConfig, (config) => config.messageMaxBytes)
export class PostClientResultDto extends ClientServerDto {
  /**
   * The server's JSON-RPC message: the answer of a request, with the request's `id`
   * (notifications are taken and set aside).
   * @example {"jsonrpc":"2.0","id":"42","result":{"content":[{"type":"text","text":"3 files"}]}}
   */
  @IsObject()
  result!: Record<string, unknown>;
}

export class ClientRequestsQuery extends ClientServerDto {
  /**
   * Resume after this event id (the `eventId` of the last request received).
   * @example "42"
   */
  @IsOptional()
  @Matches(/^\d{1,18}$/, { message: 'lastEventId must be an event id: digits, as an event carried it.' })
  lastEventId?: string;
}
