import { Module } from '@nestjs/common';
import { ConversationsModule } from 'src/modules/conversations/conversations.module';
import { IdentityModule } from 'src/modules/identity/identity.module';
import { FilesService } from 'src/modules/files/application/files.service';
import { FileRepository } from 'src/modules/files/application/ports/file.repository';
import { FilesController } from 'src/modules/files/http/files.controller';
import { FileUrls } from 'src/modules/files/http/file-urls';
import { blobStorageProvider } from 'src/modules/files/infrastructure/blob-storage.provider';
import { TypeormFileRepository } from 'src/modules/files/infrastructure/typeorm-file.repository';
import { ExpiredFilesWorker } from 'src/modules/files/workers/expired-files.worker';

@Module({
  imports: [IdentityModule, ConversationsModule],
  controllers: [FilesController],
  providers: [
    FilesService,
    FileUrls,
    ExpiredFilesWorker,
    { provide: FileRepository, useClass: TypeormFileRepository },
    blobStorageProvider,
  ],
  exports: [FilesService],
})
export class FilesModule {}
