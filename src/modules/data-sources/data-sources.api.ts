/**
 * What other contexts use of data-sources: the one file of it they import (docs/architecture.md,
 * the dependency rules). It re-exports only what they use, so it adds no import cycle.
 */
export { DocumentSearchService } from 'src/modules/data-sources/application/document-search.service';
export { FragmentDocumentsService } from 'src/modules/data-sources/application/fragment-documents.service';
export { DataSourcesConfig } from 'src/modules/data-sources/data-sources.config';
export { DataSourcesModule } from 'src/modules/data-sources/data-sources.module';
export type { DocumentHit } from 'src/modules/data-sources/domain/document-search';
