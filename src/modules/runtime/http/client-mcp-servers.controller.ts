import { Body, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { WorkspaceController } from 'src/platform/http/api-families';
import { ClientMcpServersService } from 'src/modules/runtime/application/client-mcp-servers.service';
import type { ClientMcpRequest } from 'src/modules/runtime/application/ports/client-mcp-store';
import {
  ClientRequestsQuery,
  ClientServerDto,
  PostClientResultDto,
  RegisterClientServerDto,
} from 'src/modules/runtime/http/dto/client-mcp.dto';
import {
  ClientResultResponse,
  HeartbeatClientServerResponse,
  RegisterClientServerResponse,
} from 'src/modules/runtime/http/schemas/client-mcp.schema';

const REQUEST_EVENT_SCHEMA = {
  type: 'object',
  description:
    'One `data:` line per request, `{"eventId": "<id>", "data": <JSON-RPC request or notification>}`; the stream ends with `data: done`.',
  properties: {
    eventId: { type: 'string', example: '42' },
    data: {
      type: 'object',
      example: {
        jsonrpc: '2.0',
        id: '42',
        method: 'tools/call',
        params: { name: 'list_files', arguments: {} },
      },
    },
  },
};

/**
 * Client-side MCP servers as Dust's extension and CLI lend them (`@dust-tt/client`'s
 * `registerMCPServer`, `heartbeatMCPServer`, `getMCPRequestsConnectionDetails`, `postMCPResults`).
 */
@ApiTags('client-side MCP servers')
@WorkspaceController('mcp', { families: ['public'] })
export class ClientMcpServersController {
  constructor(private readonly servers: ClientMcpServersService) {}

  @Post('register')
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({
    summary: "Register a client-side MCP server, lent to the caller's own runs.",
    description:
      'With `write:conversation`: the server belongs to the calling member in this workspace (16 at most at once). Name its `serverId` in `context.clientSideMCPServerIds` of a message and the agents answering that message get its tools, listed through the server itself. It is dropped once no heartbeat came for `CLIENT_MCP_SERVER_TIMEOUT_MS` (`expiresAt`), and its unanswered calls then fail.',
  })
  @ApiOkResponse({ type: RegisterClientServerResponse })
  @ApiErrors(400)
  register(
    @CurrentCaller() caller: Caller,
    @Body() body: RegisterClientServerDto,
  ): Promise<RegisterClientServerResponse> {
    return this.servers.register(caller, body.serverName);
  }

  @Post('heartbeat')
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({
    summary: 'Keep a client-side MCP server alive.',
    description:
      "With `write:conversation`: moves the server's expiry `CLIENT_MCP_SERVER_TIMEOUT_MS` ahead. 404 for a server that is not the caller's in this workspace, or that was dropped (register again).",
  })
  @ApiOkResponse({ type: HeartbeatClientServerResponse })
  @ApiErrors(400, 404)
  async heartbeat(
    @CurrentCaller() caller: Caller,
    @Body() body: ClientServerDto,
  ): Promise<HeartbeatClientServerResponse> {
    const lease = await this.servers.heartbeat(caller, body.serverId);
    return { success: true, expiresAt: lease.expiresAt };
  }

  @Get('requests')
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({
    summary: "Wait for the MCP requests of a client-side server's runs (Server-Sent Events).",
    description:
      'With `write:conversation`, for the caller\'s own live server (else 404). Sends the requests not answered yet after `lastEventId` as they are queued, by any process, each as `data: {"eventId","data"}` where `data` is a JSON-RPC message (`initialize`, `tools/list`, `tools/call`, notifications); then ends with `data: done` after `CLIENT_MCP_REQUESTS_WAIT_MS`, or when the server is dropped: connect again with the last `eventId`. Answer each request with `mcp/results`.',
  })
  @ApiOkResponse({ content: { 'text/event-stream': { schema: REQUEST_EVENT_SCHEMA } } })
  @ApiErrors(400, 404)
  async requests(
    @CurrentCaller() caller: Caller,
    @Query() query: ClientRequestsQuery,
    @Res() res: ServerResponse,
  ): Promise<void> {
    const server = await this.servers.live(caller, query.serverId);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    const left = new AbortController();
    res.on('close', () => left.abort());
    const deliver = async (requests: ClientMcpRequest[]) => {
      for (const request of requests) {
        if (!res.write(`data: ${JSON.stringify({ eventId: request.id, data: request.message })}\n\n`)) {
          await once(res, 'drain', { signal: left.signal });
        }
      }
    };
    try {
      await this.servers.poll(server, query.lastEventId ?? '0', deliver, left.signal);
    } catch {
      // The client left mid-write: nothing more to send.
    }
    if (!left.signal.aborted) res.end('data: done\n\n');
  }

  @Post('results')
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({
    summary: "Answer a request of a client-side server's run.",
    description:
      "With `write:conversation`, for the caller's own live server (else 404). `result` is the server's JSON-RPC answer, carrying the `id` of the request it answers; it reaches the run waiting for it on any process, read up to `MCP_MESSAGE_MAX_BYTES` (at least 1 MiB, counted as it arrives) and cut to `TOOL_OUTPUT_MAX_BYTES` before the model reads it, as a remote server's. An answer to no waiting request is 404; a notification is taken and set aside.",
  })
  @ApiOkResponse({ type: ClientResultResponse })
  @ApiErrors(400, 404, 413)
  async results(
    @CurrentCaller() caller: Caller,
    @Body() body: PostClientResultDto,
  ): Promise<ClientResultResponse> {
    await this.servers.postResult(caller, body.serverId, body.result);
    return { success: true };
  }
}
