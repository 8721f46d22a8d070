import { Injectable } from '@nestjs/common';
import { Clock } from 'src/platform/clock/clock';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { McpConfig } from 'src/platform/mcp/mcp.config';
import { describeMcpFailure } from 'src/platform/mcp/mcp-failure';
import { McpConnectionError, McpConnector, McpSession, RemoteMcpTarget } from 'src/platform/mcp/mcp-session';
import {
  REMOTE_TOOLS_JSON_MAX_BYTES,
  REMOTE_TOOLS_MAX,
  ToolSync,
  serverVersionOf,
  toolListProblem,
} from 'src/modules/agents/domain/catalogue';

/** A synchronisation's outcome, and whether it failed because the address is not allowed. */
export interface ToolListing {
  sync: ToolSync;
  forbiddenAddress: boolean;
}

/** Connects to a remote tool server and lists its tools: what registration and sync store. */
@Injectable()
export class ToolServerSyncService {
  constructor(
    private readonly connector: McpConnector,
    private readonly config: McpConfig,
    private readonly clock: Clock,
    private readonly log: OperatorLog,
  ) {}

  async listTools(target: RemoteMcpTarget): Promise<ToolListing> {
    const lastSyncedAt = this.clock.now();
    const failed = (lastSyncError: string, forbiddenAddress = false): ToolListing => ({
      sync: { tools: [], lastSyncedAt, lastSyncError, serverVersion: null },
      forbiddenAddress,
    });
    let session: McpSession | undefined;
    try {
      session = await this.connector.connectRemote(target);
      // Pages past what a sync keeps are not requested: a listing of millions stops at its cap.
      const tools = await session.listTools(AbortSignal.timeout(this.config.callTimeoutMs), {
        maxTools: REMOTE_TOOLS_MAX,
        maxBytes: REMOTE_TOOLS_JSON_MAX_BYTES,
      });
      const problem = toolListProblem(tools);
      return problem
        ? failed(problem)
        : {
            sync: {
              tools,
              lastSyncedAt,
              lastSyncError: null,
              serverVersion: serverVersionOf(session.serverVersion()),
            },
            forbiddenAddress: false,
          };
    } catch (error) {
      if (error instanceof McpConnectionError) {
        return failed(error.message, error.code === 'forbidden_address');
      }
      // The SDK's message may hold the server's answer: the operator's log has it, members a summary.
      this.log.warn(ToolServerSyncService.name, { err: error }, 'Listing the tools of a tool server failed.');
      return failed(`The server did not list its tools. ${describeMcpFailure(error).reason}`);
    } finally {
      await session?.close().catch(() => undefined);
    }
  }
}
