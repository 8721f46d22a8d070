import { DynamicModule, Global, Module } from '@nestjs/common';
import { DatabaseAddress } from 'src/platform/database/database-address';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { UnitOfWork } from 'src/platform/database/unit-of-work';

@Global()
@Module({})
export class DatabaseModule {
  /** `address`: where connections of their own (LISTEN) go, as the pool's do. */
  static forRoot(address: DatabaseAddress): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        TypeormUnitOfWork,
        { provide: UnitOfWork, useExisting: TypeormUnitOfWork },
        { provide: DatabaseAddress, useValue: address },
      ],
      exports: [TypeormUnitOfWork, UnitOfWork, DatabaseAddress],
    };
  }
}
