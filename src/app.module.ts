import { DynamicModule, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { TypeOrmModule } from '@nestjs/typeorm';
import { createDataSourceOptions } from 'src/app.data-source';
import { ClockModule } from 'src/platform/clock/clock.module';
import type { Configuration } from 'src/platform/config/configuration';
import { ConfigurationModule } from 'src/platform/config/configuration.module';
import { PlatformConfig } from 'src/platform/config/platform.config';
import { DatabaseAddress, addressOf } from 'src/platform/database/database-address';
import { DatabaseModule } from 'src/platform/database/database.module';
import { SchedulingModule } from 'src/platform/scheduling/scheduling.module';
import { EventsModule } from 'src/platform/events/events.module';
import { HealthModule } from 'src/platform/health/health.module';
import { AgentsModule } from 'src/modules/agents/agents.api';
import { ConversationsModule } from 'src/modules/conversations/conversations.api';
import { DataSourcesModule } from 'src/modules/data-sources/data-sources.api';
import { FeedbackModule } from 'src/modules/feedback/feedback.api';
import { FilesModule } from 'src/modules/files/files.api';
import { IdentityModule } from 'src/modules/identity/identity.api';
import { RuntimeModule } from 'src/modules/runtime/runtime.api';
import { TriggersModule } from 'src/modules/triggers/triggers.api';
import { WakeUpsModule } from 'src/modules/wakeups/wakeups.api';
import { UsageModule } from 'src/modules/usage/usage.api';
import { UrlSigningModule } from 'src/platform/auth/url-signing.module';
import { LoggingModule } from 'src/platform/logging/app-logger';
import { McpModule } from 'src/platform/mcp/mcp.module';
import { ObservabilityModule } from 'src/platform/observability/observability.module';
import { CrossContextPortsModule } from 'src/platform/ports/cross-context-ports.module';
import { crossContextPorts } from 'src/composition/cross-context-ports';

@Module({})
export class AppModule {
  /**
   * The validated configuration and the resolved database (a URL, or an address that follows the
   * embedded server) come from the caller (main, CLI, tests).
   */
  static forRoot(
    configuration: Configuration,
    database: string | DatabaseAddress,
    logOutput: 'stdout' | 'stderr' = 'stdout',
  ): DynamicModule {
    const address = addressOf(database);
    return {
      module: AppModule,
      imports: [
        ConfigurationModule.register(configuration),
        LoggingModule.forRoot(configuration.get(PlatformConfig).logLevel, logOutput),
        ClockModule,
        ObservabilityModule,
        TypeOrmModule.forRoot(createDataSourceOptions(address)),
        DatabaseModule.forRoot(address),
        SchedulingModule,
        EventEmitterModule.forRoot(),
        EventsModule,
        HealthModule,
        UrlSigningModule,
        McpModule,
        IdentityModule,
        AgentsModule,
        ConversationsModule,
        RuntimeModule,
        WakeUpsModule,
        DataSourcesModule,
        FilesModule,
        FeedbackModule,
        UsageModule,
        TriggersModule,
        CrossContextPortsModule.bind(crossContextPorts),
      ],
    };
  }
}
