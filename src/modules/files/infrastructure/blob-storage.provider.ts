import type { FactoryProvider } from '@nestjs/common';
import { join } from 'node:path';
import { PlatformConfig } from 'src/platform/config/platform.config';
import { BlobStorage } from 'src/modules/files/application/ports/blob-storage';
import { LocalBlobStorage } from 'src/modules/files/infrastructure/local-blob-storage';
import { FilesConfig } from 'src/modules/files/files.config';

/** S3_BUCKET selects the bucket; otherwise DATA_DIR/files. The AWS SDK is loaded only when used. */
export const blobStorageProvider: FactoryProvider<BlobStorage> = {
  provide: BlobStorage,
  useFactory: async (platform: PlatformConfig, files: FilesConfig): Promise<BlobStorage> => {
    if (!files.s3) return new LocalBlobStorage(join(platform.dataDir, 'files'));
    // Relative: the build rewrites the `src/` paths of static imports only.
    const { S3BlobStorage } = await import('./s3-blob-storage');
    return new S3BlobStorage(files.s3);
  },
  inject: [PlatformConfig, FilesConfig],
};
