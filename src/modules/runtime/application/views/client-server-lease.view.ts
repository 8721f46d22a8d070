import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { ClientMcpServer } from 'src/modules/runtime/domain/client-mcp-server';

/** A registration as the client reads it. */
@ApiSchema({ name: 'RegisterClientServerResponse' })
export class ClientServerLease {
  /**
   * Name it in `context.clientSideMCPServerIds` of a message, and in the other `mcp/*` calls.
   * @example "cS7mQ2pL9x"
   */
  serverId!: string;
  /**
   * When the server is dropped unless a heartbeat comes first (ISO 8601).
   * @example "2026-11-26T10:10:00.000Z"
   */
  expiresAt!: string;
}

export class HeartbeatClientServerResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  /**
   * The new expiry (ISO 8601).
   * @example "2026-11-26T10:15:00.000Z"
   */
  expiresAt!: string;
}

export class ClientResultResponse {
  @ApiProperty({ enum: [true] }) success!: true;
}

export const renderClientServerLease = (server: ClientMcpServer): ClientServerLease => ({
  serverId: server.sId,
  expiresAt: server.expiresAt.toISOString(),
});
