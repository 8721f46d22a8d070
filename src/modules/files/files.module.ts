import { Global, Module } from '@nestjs/common';
import { FragmentFiles } from 'src/modules/conversations/application/ports/fragment-files';
import { ConversationsModule } from 'src/modules/conversations/conversations.module';
import { IdentityModule } from 'src/modules/identity/identity.module';
import { FileAttachmentsService } from 'src/modules/files/application/file-attachments.service';
import { FileTextsService } from 'src/modules/files/application/file-texts.service';
import { FilesService } from 'src/modules/files/application/files.service';
import { DocumentParser } from 'src/modules/files/application/ports/document-parser';
import { FileRepository } from 'src/modules/files/application/ports/file.repository';
import { FilesController } from 'src/modules/files/http/files.controller';
import { FileUrls } from 'src/modules/files/http/file-urls';
import { ProcessPoolDocumentParser } from 'src/modules/files/infrastructure/documents/process-pool-document-parser';
import { blobStorageProvider } from 'src/modules/files/infrastructure/blob-storage.provider';
import { TypeormFileRepository } from 'src/modules/files/infrastructure/typeorm-file.repository';
import { ExpiredFilesWorker } from 'src/modules/files/workers/expired-files.worker';

// Global: conversations reach the files they show through the FragmentFiles port it provides,
// since this module already depends on conversations.
@Global()
@Module({
  imports: [IdentityModule, ConversationsModule],
  controllers: [FilesController],
  providers: [
    FilesService,
    FileTextsService,
    FileAttachmentsService,
    { provide: FragmentFiles, useExisting: FileAttachmentsService },
    FileUrls,
    ExpiredFilesWorker,
    { provide: FileRepository, useClass: TypeormFileRepository },
    { provide: DocumentParser, useClass: ProcessPoolDocumentParser },
    blobStorageProvider,
  ],
  exports: [FilesService, FileAttachmentsService, FragmentFiles],
})
export class FilesModule {}
