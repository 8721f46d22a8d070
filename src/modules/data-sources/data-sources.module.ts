import { Module } from '@nestjs/common';
import { IdentityModule } from 'src/modules/identity/identity.module';
import { DataSourcesService } from 'src/modules/data-sources/application/data-sources.service';
import { DataSourceRepository } from 'src/modules/data-sources/application/ports/data-source.repository';
import { DataSourceViewsController } from 'src/modules/data-sources/http/data-source-views.controller';
import { DataSourcesController } from 'src/modules/data-sources/http/data-sources.controller';
import { TypeormDataSourceRepository } from 'src/modules/data-sources/infrastructure/typeorm-data-source.repository';

@Module({
  imports: [IdentityModule],
  controllers: [DataSourcesController, DataSourceViewsController],
  providers: [DataSourcesService, { provide: DataSourceRepository, useClass: TypeormDataSourceRepository }],
})
export class DataSourcesModule {}
