/**
 * What other contexts use of files: the one file of it they import (docs/architecture.md,
 * the dependency rules). It re-exports only what they use, so it adds no import cycle.
 */
export { FileAttachmentsService } from 'src/modules/files/application/file-attachments.service';
export type { FragmentImage } from 'src/modules/files/application/file-attachments.service';
export { FilesService } from 'src/modules/files/application/files.service';
export { FilesConfig } from 'src/modules/files/files.config';
export { FilesModule } from 'src/modules/files/files.module';
