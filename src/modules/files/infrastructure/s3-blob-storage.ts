import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { OnApplicationShutdown } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { BlobStorage } from 'src/modules/files/application/ports/blob-storage';
import type { S3Settings } from 'src/modules/files/files.config';

/** Parts of a multipart upload: memory per upload stays near PART_SIZE × QUEUE_SIZE. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

/**
 * Blobs in an S3-compatible bucket. Content is streamed in parts of a multipart upload (one PUT
 * when small); a failed upload is aborted, so nothing appears under the key.
 */
export class S3BlobStorage extends BlobStorage implements OnApplicationShutdown {
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    super();
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint ?? undefined,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.credentials ?? undefined,
    });
  }

  async write(key: string, content: Readable, contentType: string): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: key, Body: content, ContentType: contentType },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    await upload.done();
  }

  async read(key: string): Promise<Readable | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return object.Body as Readable;
    } catch (error) {
      if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.name === 'NotFound')) {
        return null;
      }
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  /**
   * A multipart upload is not an object: nothing to keep alive, and none is ever listed or read.
   * What a killed process leaves is the bucket's lifecycle rule for incomplete uploads to remove.
   */
  keepDraftsAlive(): Promise<void> {
    return Promise.resolve();
  }

  removeAbandonedDrafts(): Promise<number> {
    return Promise.resolve(0);
  }

  /** Lets go of the client's open connections. */
  onApplicationShutdown(): void {
    this.client.destroy();
  }
}
