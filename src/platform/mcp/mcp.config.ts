import { ConfigSchema, configToken } from 'src/platform/config/config-schema';
import { boolean, duration, integer } from 'src/platform/config/variables';

const MIB = 1024 * 1024;

const mcpConfig = ConfigSchema.of({
  callTimeoutMs: duration('TOOL_CALL_TIMEOUT_MS', {
    default: 60_000,
    description:
      'A tool call that has not answered after this long is `failed`; its error goes to the model and the run goes on.',
  }),
  outputMaxBytes: integer('TOOL_OUTPUT_MAX_BYTES', {
    default: 65_536,
    min: 1_024,
    max: 10_485_760,
    description: 'Text a tool call may hand back to the model; longer output is cut with a note saying so.',
  }),
  messageMaxBytes: integer('MCP_MESSAGE_MAX_BYTES', {
    default: null,
    min: 65_536,
    max: 256 * MIB,
    shownDefault: '`4194304`',
    description:
      'Bytes of one answer of a remote MCP server read, counted as they arrive (at least `TOOL_OUTPUT_MAX_BYTES`; default twice it if larger); past them the call or listing fails.',
  }),
  allowPrivateNetworks: boolean('MCP_ALLOW_PRIVATE_NETWORKS', {
    default: false,
    description:
      '`true`: remote MCP servers may live on loopback, private or link-local addresses (self-hosted set-ups). Otherwise such URLs are refused, after DNS resolution, at every connection.',
  }),
}).then((values, refuse) => {
  // One answer must be able to carry a whole tool output, with room for its JSON-RPC envelope.
  const messageMaxBytes = values.messageMaxBytes ?? Math.max(4 * MIB, 2 * values.outputMaxBytes);
  if (messageMaxBytes < values.outputMaxBytes) {
    return refuse(
      `MCP_MESSAGE_MAX_BYTES must be at least TOOL_OUTPUT_MAX_BYTES (${values.outputMaxBytes}), got "${messageMaxBytes}".`,
    );
  }
  return { ...values, messageMaxBytes };
});

/**
 * How the service talks to tool servers: the platform's MCP client, the catalogue's listings
 * (agents) and the runs' tool calls (runtime) all follow it.
 */
export abstract class McpConfig extends configToken(mcpConfig) {}
