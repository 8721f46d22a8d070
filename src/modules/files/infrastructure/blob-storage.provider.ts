import type { FactoryProvider } from '@nestjs/common';
import { join } from 'node:path';
import { AppConfig } from 'src/platform/config/app-config';
import { BlobStorage } from 'src/modules/files/application/ports/blob-storage';
import { LocalBlobStorage } from 'src/modules/files/infrastructure/local-blob-storage';

/** S3_BUCKET selects the bucket; otherwise DATA_DIR/files. The AWS SDK is loaded only when used. */
export const blobStorageProvider: FactoryProvider<BlobStorage> = {
  provide: BlobStorage,
  useFactory: async (config: AppConfig): Promise<BlobStorage> => {
    if (!config.s3) return new LocalBlobStorage(join(config.dataDir, 'files'));
    // Relative: the build rewrites the `src/` paths of static imports only.
    const { S3BlobStorage } = await import('./s3-blob-storage');
    return new S3BlobStorage(config.s3);
  },
  inject: [AppConfig],
};
