import { describe, expect, it } from '@jest/globals';
import { ConfigError } from 'src/platform/config/config-schema';
import { McpConfig } from 'src/platform/mcp/mcp.config';

describe('McpConfig', () => {
  it('applies defaults when nothing is set', () => {
    expect(McpConfig.from({})).toEqual({
      callTimeoutMs: 60_000,
      outputMaxBytes: 65_536,
      messageMaxBytes: 4 * 1024 * 1024,
      allowPrivateNetworks: false,
    });
  });

  it('reads the byte limit of MCP answers, which follows the tool output limit', () => {
    expect(McpConfig.from({ TOOL_OUTPUT_MAX_BYTES: '10485760' }).messageMaxBytes).toBe(20_971_520);
    expect(
      McpConfig.from({
        MCP_MESSAGE_MAX_BYTES: '65536',
        TOOL_OUTPUT_MAX_BYTES: '65536',
        TOOL_CALL_TIMEOUT_MS: '1500',
        MCP_ALLOW_PRIVATE_NETWORKS: 'TRUE',
      }),
    ).toEqual({
      callTimeoutMs: 1500,
      outputMaxBytes: 65_536,
      messageMaxBytes: 65_536,
      allowPrivateNetworks: true,
    });
    expect(McpConfig.from({ MCP_ALLOW_PRIVATE_NETWORKS: '0' }).allowPrivateNetworks).toBe(false);
  });

  const refused: [Record<string, string>, RegExp][] = [
    [{ MCP_MESSAGE_MAX_BYTES: '1024' }, /^MCP_MESSAGE_MAX_BYTES must be an integer between 65536 and/],
    [
      { MCP_MESSAGE_MAX_BYTES: '100000', TOOL_OUTPUT_MAX_BYTES: '200000' },
      /^MCP_MESSAGE_MAX_BYTES must be at least TOOL_OUTPUT_MAX_BYTES \(200000\), got "100000"\.$/,
    ],
    [{ TOOL_OUTPUT_MAX_BYTES: '512' }, /^TOOL_OUTPUT_MAX_BYTES must be an integer between 1024 and 10485760/],
    [{ TOOL_CALL_TIMEOUT_MS: 'soon' }, /^TOOL_CALL_TIMEOUT_MS must be a number of milliseconds/],
    [
      { MCP_ALLOW_PRIVATE_NETWORKS: 'yes' },
      /^MCP_ALLOW_PRIVATE_NETWORKS must be true or false, got "yes"\.$/,
    ],
  ];
  for (const [env, message] of refused) {
    it(`refuses ${JSON.stringify(env)} with a line naming the variable`, () => {
      expect(() => McpConfig.from(env)).toThrow(ConfigError);
      expect(() => McpConfig.from(env)).toThrow(message);
    });
  }
});
