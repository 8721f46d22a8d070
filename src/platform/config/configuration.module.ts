import { DynamicModule, Global, Module } from '@nestjs/common';
import type { Configuration } from 'src/platform/config/configuration';

/** Each context's configuration object, injected by its class (`constructor(config: FilesConfig)`). */
@Global()
@Module({})
export class ConfigurationModule {
  static register(configuration: Configuration): DynamicModule {
    const { tokens } = configuration;
    return {
      module: ConfigurationModule,
      providers: tokens.map((token) => ({ provide: token, useValue: configuration.get(token) })),
      exports: tokens,
    };
  }
}
