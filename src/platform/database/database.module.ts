import { Global, Module } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { UnitOfWork } from 'src/platform/database/unit-of-work';

@Global()
@Module({
  providers: [TypeormUnitOfWork, { provide: UnitOfWork, useExisting: TypeormUnitOfWork }],
  exports: [TypeormUnitOfWork, UnitOfWork],
})
export class DatabaseModule {}
