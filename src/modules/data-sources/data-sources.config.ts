import { ConfigSchema, configToken } from 'src/platform/config/config-schema';
import { integer } from 'src/platform/config/variables';

const dataSourcesConfig = ConfigSchema.of({
  maxPerDataSource: integer('DOCUMENTS_PER_DATA_SOURCE_MAX', {
    default: 100_000,
    min: 1,
    max: 100_000_000,
    description: 'Documents one data source may hold; upserting a new one beyond is refused with 400.',
  }),
  maxTags: integer('DOCUMENT_MAX_TAGS', {
    default: 64,
    min: 0,
    max: 1_000,
    description: 'Tags per document.',
  }),
  maxParents: integer('DOCUMENT_MAX_PARENTS', {
    default: 64,
    min: 0,
    max: 1_000,
    description: 'Parents per document (besides the document itself).',
  }),
});

/** Limits of the documents of data sources (their text's size is `FilesConfig.documentMaxTextBytes`). */
export abstract class DataSourcesConfig extends configToken(dataSourcesConfig) {}
