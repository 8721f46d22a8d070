import { Module } from '@nestjs/common';
import { FilesModule } from 'src/modules/files/files.api';
import { IdentityModule } from 'src/modules/identity/identity.api';
import { DataSourcesService } from 'src/modules/data-sources/application/data-sources.service';
import { FragmentDocumentsService } from 'src/modules/data-sources/application/fragment-documents.service';
import { DocumentSearchService } from 'src/modules/data-sources/application/document-search.service';
import { DocumentsService } from 'src/modules/data-sources/application/documents.service';
import { DataSourceRepository } from 'src/modules/data-sources/application/ports/data-source.repository';
import { DocumentIndex } from 'src/modules/data-sources/application/ports/document-index';
import { DocumentRepository } from 'src/modules/data-sources/application/ports/document.repository';
import { DataSourceViewSearchController } from 'src/modules/data-sources/http/data-source-view-search.controller';
import { DataSourceViewsController } from 'src/modules/data-sources/http/data-source-views.controller';
import { DataSourcesController } from 'src/modules/data-sources/http/data-sources.controller';
import { DocumentsController } from 'src/modules/data-sources/http/documents.controller';
import { PostgresDocumentIndex } from 'src/modules/data-sources/infrastructure/postgres-document-index.adapter';
import { TypeormDataSourceRepository } from 'src/modules/data-sources/infrastructure/typeorm-data-source.repository';
import { TypeormDocumentRepository } from 'src/modules/data-sources/infrastructure/typeorm-document.repository';

@Module({
  imports: [IdentityModule, FilesModule],
  controllers: [
    DataSourcesController,
    DataSourceViewsController,
    DataSourceViewSearchController,
    DocumentsController,
  ],
  providers: [
    DataSourcesService,
    DocumentsService,
    DocumentSearchService,
    FragmentDocumentsService,
    { provide: DataSourceRepository, useClass: TypeormDataSourceRepository },
    { provide: DocumentRepository, useClass: TypeormDocumentRepository },
    { provide: DocumentIndex, useClass: PostgresDocumentIndex },
  ],
  exports: [DocumentSearchService, FragmentDocumentsService],
})
export class DataSourcesModule {}
