import { Module } from '@nestjs/common';
import { ConversationsModule } from 'src/modules/conversations/conversations.module';
import { IdentityModule } from 'src/modules/identity/identity.module';
import { FileTextsService } from 'src/modules/files/application/file-texts.service';
import { FilesService } from 'src/modules/files/application/files.service';
import { DocumentParser } from 'src/modules/files/application/ports/document-parser';
import { FileRepository } from 'src/modules/files/application/ports/file.repository';
import { FilesController } from 'src/modules/files/http/files.controller';
import { FileUrls } from 'src/modules/files/http/file-urls';
import { LibraryDocumentParser } from 'src/modules/files/infrastructure/library-document-parser';
import { blobStorageProvider } from 'src/modules/files/infrastructure/blob-storage.provider';
import { TypeormFileRepository } from 'src/modules/files/infrastructure/typeorm-file.repository';
import { ExpiredFilesWorker } from 'src/modules/files/workers/expired-files.worker';

@Module({
  imports: [IdentityModule, ConversationsModule],
  controllers: [FilesController],
  providers: [
    FilesService,
    FileTextsService,
    FileUrls,
    ExpiredFilesWorker,
    { provide: FileRepository, useClass: TypeormFileRepository },
    { provide: DocumentParser, useClass: LibraryDocumentParser },
    blobStorageProvider,
  ],
  exports: [FilesService],
})
export class FilesModule {}
