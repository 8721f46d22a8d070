import { Body, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { WorkspaceController } from 'src/platform/http/api-families';
import { HeldStream, SseStreams, StreamAccessCheck, StreamGrant } from 'src/platform/http/sse-streams';
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
  ClientServerLease,
  HeartbeatClientServerResponse,
} from 'src/modules/runtime/application/views/client-server-lease.view';

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
 * One `mcp/requests` response, held by SseStreams with the event streams: counted against their
 * caps, closed (nothing more sent) once its key is revoked or its member loses the workspace, its
 * writes held while that is re-checked.
 */
class RequestStream implements HeldStream {
  /** Aborts once the stream ends, whichever side ends it. */
  private readonly ended = new AbortController();
  private holds = 0;
  private released: (() => void)[] = [];
  private readonly closedCallbacks: (() => void)[] = [];

  constructor(private readonly res: ServerResponse) {
    res.on('close', () => this.end());
  }

  get signal(): AbortSignal {
    return this.ended.signal;
  }

  /** Ends it from the server side (access gone, shutdown): the poll stops, nothing more is sent. */
  close(): void {
    if (this.ended.signal.aborted) return;
    this.end();
    if (!this.res.writableEnded) this.res.end();
  }

  /** The process stops: the client polls again after `reconnectInMs`, on another process. */
  closeForRestart(reconnectInMs: number): void {
    if (this.ended.signal.aborted) return;
    this.end();
    if (!this.res.writableEnded) this.res.end(`retry: ${reconnectInMs}\n\n`);
  }

  hold(): void {
    this.holds++;
  }

  release(): void {
    if (this.holds === 0) return;
    if (--this.holds === 0) for (const resume of this.released.splice(0)) resume();
  }

  onClosed(callback: () => void): void {
    if (this.ended.signal.aborted) callback();
    else this.closedCallbacks.push(callback);
  }

  /** Resolves once no access re-check holds the stream (at once when none does). */
  async cleared(): Promise<void> {
    if (this.holds === 0) return;
    await new Promise<void>((resume) => this.released.push(resume));
  }

  private end(): void {
    if (this.ended.signal.aborted) return;
    this.ended.abort();
    for (const resume of this.released.splice(0)) resume();
    for (const callback of this.closedCallbacks.splice(0)) callback();
  }
}

/**
 * Client-side MCP servers as Dust's extension and CLI lend them (`@dust-tt/client`'s
 * `registerMCPServer`, `heartbeatMCPServer`, `getMCPRequestsConnectionDetails`, `postMCPResults`).
 */
@ApiTags('client-side MCP servers')
@WorkspaceController('mcp', { families: ['public'] })
export class ClientMcpServersController {
  constructor(
    private readonly servers: ClientMcpServersService,
    private readonly streams: SseStreams,
  ) {}

  @Post('register')
  @HttpCode(200)
  @Auth({ scopes: ['write:conversation'] })
  @ApiOperation({
    summary: "Register a client-side MCP server, lent to the caller's own runs.",
    description:
      'With `write:conversation`: the server belongs to the calling member in this workspace (16 at most at once). Name its `serverId` in `context.clientSideMCPServerIds` of a message and the agents answering that message get its tools, listed through the server itself. It is dropped once no heartbeat came for `CLIENT_MCP_SERVER_TIMEOUT_MS` (`expiresAt`), and its unanswered calls then fail.',
  })
  @ApiOkResponse({ type: ClientServerLease })
  @ApiErrors(400)
  register(
    @CurrentCaller() caller: Caller,
    @Body() body: RegisterClientServerDto,
  ): Promise<ClientServerLease> {
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
      'With `write:conversation`, for the caller\'s own live server (else 404). Sends the requests not answered yet after `lastEventId` as they are queued, by any process, each as `data: {"eventId","data"}` where `data` is a JSON-RPC message (`initialize`, `tools/list`, `tools/call`, notifications); then ends with `data: done` after `CLIENT_MCP_REQUESTS_WAIT_MS`, or when the server is dropped: connect again with the last `eventId`. Answer each request with `mcp/results`. These streams count with the key\'s event streams: a key holds at most 50 open streams and a workspace 1,000 per server process (`SSE_MAX_KEY_STREAMS`, `SSE_MAX_WORKSPACE_STREAMS`), one more is refused with 429 `rate_limit_error`; a stream ends, with nothing more sent, once its key is revoked or its member leaves the workspace.',
  })
  @ApiOkResponse({ content: { 'text/event-stream': { schema: REQUEST_EVENT_SCHEMA } } })
  @ApiErrors(400, 404, 429)
  async requests(
    @CurrentCaller() caller: Caller,
    @Query() query: ClientRequestsQuery,
    @Res() res: ServerResponse,
  ): Promise<void> {
    const server = await this.servers.live(caller, query.serverId);
    const stream = new RequestStream(res);
    const grant: StreamGrant = {
      keyId: caller.keyId,
      workspaceId: caller.workspaceId,
      userId: caller.userId,
      conversationId: null,
    };
    this.streams.admit(stream, grant, this.stillPolling);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    const deliver = async (requests: ClientMcpRequest[]) => {
      for (const request of requests) {
        await stream.cleared();
        if (stream.signal.aborted) return;
        if (!res.write(`data: ${JSON.stringify({ eventId: request.id, data: request.message })}\n\n`)) {
          await once(res, 'drain', { signal: stream.signal });
        }
      }
    };
    try {
      await this.servers.poll(server, query.lastEventId ?? '0', deliver, stream.signal);
    } catch {
      // The client left mid-write: nothing more to send.
    }
    if (!stream.signal.aborted) res.end('data: done\n\n');
    stream.close();
  }

  /** One function for every request stream, so their re-checks are batched together. */
  private readonly stillPolling: StreamAccessCheck = (grants) => this.servers.stillPolling(grants);

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
