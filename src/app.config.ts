import type { ConfigToken } from 'src/platform/config/config-schema';
import { PlatformConfig } from 'src/platform/config/platform.config';
import { HealthConfig } from 'src/platform/health/health.config';
import { SseConfig } from 'src/platform/http/sse.config';
import { McpConfig } from 'src/platform/mcp/mcp.config';
import { ObservabilityConfig } from 'src/platform/observability/observability.config';
import { AgentsConfig } from 'src/modules/agents/agents.api';
import { ConversationsConfig } from 'src/modules/conversations/conversations.api';
import { DataSourcesConfig } from 'src/modules/data-sources/data-sources.api';
import { FilesConfig } from 'src/modules/files/files.api';
import { TriggersConfig } from 'src/modules/triggers/triggers.api';
import { RuntimeConfig } from 'src/modules/runtime/runtime.api';
import { UsageConfig } from 'src/modules/usage/usage.api';

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
