import { Injectable } from '@nestjs/common';
import { UrlSigner } from 'src/platform/auth/url-signer';
import { PlatformConfig } from 'src/platform/config/platform.config';
import type { FileRecord } from 'src/modules/files/domain/file';

/** The addresses of a file: its API path, and the absolute URLs handed to clients. */
@Injectable()
export class FileUrls {
  constructor(
    private readonly config: PlatformConfig,
    private readonly signer: UrlSigner,
  ) {}

  path(workspaceSId: string, file: FileRecord): string {
    return `/api/w/${workspaceSId}/files/${file.sId}`;
  }

  /** The upload endpoint, signed until the end of the file's upload window. */
  uploadUrl(workspaceSId: string, file: FileRecord): string {
    const path = this.path(workspaceSId, file);
    return `${this.config.publicBaseUrl}${path}?${this.signer.signQuery('POST', path, file.expiresAt)}`;
  }

  downloadUrl(workspaceSId: string, file: FileRecord): string {
    return `${this.config.publicBaseUrl}${this.path(workspaceSId, file)}?action=download`;
  }

  /** Where anyone, without a key, reads an avatar. */
  publicUrl(workspaceSId: string, file: FileRecord): string {
    return `${this.config.publicBaseUrl}${this.path(workspaceSId, file)}/public`;
  }
}
