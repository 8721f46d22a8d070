import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from 'src/platform/config/app-config';

/** The validated configuration, parsed before Nest starts, for every context to inject. */
@Global()
@Module({})
export class AppConfigModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppConfigModule,
      providers: [{ provide: AppConfig, useValue: config }],
      exports: [AppConfig],
    };
  }
}
