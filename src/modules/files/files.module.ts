import { Module } from '@nestjs/common';
import { ConversationsModule } from 'src/modules/conversations/conversations.api';
import { IdentityModule } from 'src/modules/identity/identity.api';
import { FileAttachmentsService } from 'src/modules/files/application/file-attachments.service';
import { FileTextsService } from 'src/modules/files/application/file-texts.service';
import { FilesService } from 'src/modules/files/application/files.service';
import { UploadLivenessService } from 'src/modules/files/application/upload-liveness.service';
import { DocumentParser } from 'src/modules/files/application/ports/document-parser';
import { FileRepository } from 'src/modules/files/application/ports/file.repository';
import { FilesController } from 'src/modules/files/http/files.controller';
import { FileUrls } from 'src/modules/files/http/file-urls';
import { ProcessPoolDocumentParser } from 'src/modules/files/infrastructure/documents/process-pool-document-parser';
import { blobStorageProvider } from 'src/modules/files/infrastructure/blob-storage.provider';
import { TypeormFileRepository } from 'src/modules/files/infrastructure/typeorm-file.repository';
import { ExpiredFilesWorker } from 'src/modules/files/workers/expired-files.worker';

// FileAttachmentsService answers conversations' FragmentFiles port (bound in src/composition).
@Module({
  imports: [IdentityModule, ConversationsModule],
  controllers: [FilesController],
  providers: [
    FilesService,
    UploadLivenessService,
    FileTextsService,
    FileAttachmentsService,
    FileUrls,
    ExpiredFilesWorker,
    { provide: FileRepository, useClass: TypeormFileRepository },
    { provide: DocumentParser, useClass: ProcessPoolDocumentParser },
    blobStorageProvider,
  ],
  exports: [FilesService, FileAttachmentsService],
})
export class FilesModule {}
