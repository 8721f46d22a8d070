import type { ConfigToken } from 'src/platform/config/config-schema';
import { PlatformConfig } from 'src/platform/config/platform.config';
import { HealthConfig } from 'src/platform/health/health.config';
import { SseConfig } from 'src/platform/http/sse.config';
import { McpConfig } from 'src/platform/mcp/mcp.config';
import { ObservabilityConfig } from 'src/platform/observability/observability.config';
import { AgentsConfig } from 'src/modules/agents/agents.config';
import { ConversationsConfig } from 'src/modules/conversations/conversations.config';
import { DataSourcesConfig } from 'src/modules/data-sources/data-sources.config';
import { FilesConfig } from 'src/modules/files/files.config';
import { TriggersConfig } from 'src/modules/triggers/triggers.config';
import { RuntimeConfig } from 'src/modules/runtime/runtime.config';
import { UsageConfig } from 'src/modules/usage/usage.config';

/** Every configuration the service reads, in the order docs/configuration.md lists them. */
export const CONFIGURATIONS: readonly ConfigToken[] = [
  PlatformConfig,
  HealthConfig,
  SseConfig,
  McpConfig,
  ObservabilityConfig,
  AgentsConfig,
  ConversationsConfig,
  RuntimeConfig,
  UsageConfig,
  FilesConfig,
  DataSourcesConfig,
  TriggersConfig,
];
