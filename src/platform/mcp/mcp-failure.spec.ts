import { describe, expect, it } from '@jest/globals';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describeMcpFailure } from 'src/platform/mcp/mcp-failure';

const MARKER = 'body-of-the-answer';

describe('describeMcpFailure', () => {
  it.each([
    [new StreamableHTTPError(500, `Error POSTing to endpoint: ${MARKER}`), 'The server answered HTTP 500.'],
    [
      new StreamableHTTPError(-1, `Unexpected content type: text/${MARKER}`),
      "The server's answer is not a valid MCP message.",
    ],
    [
      new SseError(
        502,
        `Non-200 status code (502) ${MARKER}`,
        {} as ConstructorParameters<typeof SseError>[2],
      ),
      'The server answered HTTP 502.',
    ],
    [new Error(`Error POSTing to endpoint (HTTP 503): ${MARKER}`), 'The server answered HTTP 503.'],
    [
      new StreamableHTTPError(403, MARKER),
      'The server refused the request (HTTP 403); check the shared secret.',
    ],
    [new UnauthorizedError(MARKER), 'The server refused the request (HTTP 401); check the shared secret.'],
    [
      new McpError(ErrorCode.MethodNotFound, MARKER),
      'The server answered with MCP error -32601 (method not found).',
    ],
    [new McpError(4242, MARKER), 'The server answered with MCP error 4242.'],
    [new McpError(1.5, MARKER), 'The server answered with an MCP error.'],
    [new McpError(ErrorCode.RequestTimeout, MARKER), 'The server did not answer in time.'],
    [
      new SyntaxError(`Unexpected token '<', "<html>${MARKER}" is not valid JSON`),
      "The server's answer is not a valid MCP message.",
    ],
    [
      Object.assign(new Error(MARKER), { name: 'ZodError' }),
      "The server's answer is not a valid MCP message.",
    ],
  ])('says %s as %j, without the bytes of the answer', (error, reason) => {
    expect(describeMcpFailure(error).reason).toBe(reason);
    expect(describeMcpFailure(error).reason).not.toContain(MARKER);
  });

  it("names the network's own reason when no answer came", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4000'), { code: 'ECONNREFUSED' });
    const failure = describeMcpFailure(new TypeError('fetch failed', { cause: refused }));
    expect(failure).toEqual({
      kind: 'unreachable',
      reason: 'The server could not be reached: connect ECONNREFUSED 127.0.0.1:4000.',
    });
  });
});
