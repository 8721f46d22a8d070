import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { checkName } from 'src/platform/text/names';

/** The connectors a data source can be fed by. A data source without a connector is a folder. */
export const CONNECTOR_PROVIDERS = [
  'bigquery',
  'confluence',
  'github',
  'gong',
  'google_drive',
  'intercom',
  'microsoft',
  'notion',
  'salesforce',
  'slack',
  'snowflake',
  'webcrawler',
  'zendesk',
] as const;
export type ConnectorProvider = (typeof CONNECTOR_PROVIDERS)[number];

/** The provider of a crawled website: its data sources are websites, not managed connections. */
export const WEBSITE_PROVIDER: ConnectorProvider = 'webcrawler';

export const DATA_SOURCE_CATEGORIES = ['managed', 'folder', 'website'] as const;
export type DataSourceCategory = (typeof DATA_SOURCE_CATEGORIES)[number];

export const DATA_SOURCE_NAME_MAX = 100;
/** Any language works with `simple` (no stemming, no stop words); a named language stems its words. */
export const DEFAULT_TEXT_SEARCH_CONFIG = 'simple';
const TEXT_SEARCH_CONFIG_NAME = /^[a-z][a-z0-9_]{0,62}$/;
export const DATA_SOURCE_DESCRIPTION_MAX = 1000;

export interface DataSource {
  id: number;
  sId: string;
  workspaceId: number;
  name: string;
  description: string;
  /** Null for a folder, whose documents are uploaded rather than synchronised. */
  connectorProvider: ConnectorProvider | null;
  connectorId: string;
  serviceApiProjectId: string;
  /** Whether agents use the data source unless told otherwise. */
  assistantDefaultSelected: boolean;
  /** The PostgreSQL text-search configuration its documents are indexed and searched with. */
  textSearchConfig: string;
  createdAt: Date;
}

export function isConnectorProvider(value: string): value is ConnectorProvider {
  return (CONNECTOR_PROVIDERS as readonly string[]).includes(value);
}

/** Absent or null means a folder; anything else must be a known connector. */
export function parseConnectorProvider(value: string | null | undefined): ConnectorProvider | null {
  if (value === undefined || value === null) return null;
  if (!isConnectorProvider(value)) {
    throw new InvalidRequestError(
      `connectorProvider: must be one of ${CONNECTOR_PROVIDERS.join(', ')}, or null for a folder; got "${value}".`,
    );
  }
  return value;
}

export function dataSourceCategory(provider: ConnectorProvider | null): DataSourceCategory {
  if (provider === null) return 'folder';
  return provider === WEBSITE_PROVIDER ? 'website' : 'managed';
}

/**
 * Connected tools are what agents are expected to search by default; folders and crawled sites
 * are often narrow or noisy, so agents use them only when chosen.
 */
export function isAssistantDefaultSelected(provider: ConnectorProvider | null): boolean {
  return dataSourceCategory(provider) === 'managed';
}

function hasControlCharacter(text: string): boolean {
  return [...text].some((char) => {
    const code = char.charCodeAt(0);
    return code < 0x20 || code === 0x7f;
  });
}

export function checkDataSourceName(name: string): string {
  return checkName('name', name, DATA_SOURCE_NAME_MAX);
}

/** Line breaks are allowed in a description; other control characters are not. */
export function checkDataSourceDescription(description: string | undefined): string {
  const trimmed = (description ?? '').trim();
  if (
    trimmed.length > DATA_SOURCE_DESCRIPTION_MAX ||
    hasControlCharacter(trimmed.replace(/[\r\n\t]/g, ' '))
  ) {
    throw new InvalidRequestError(
      `description: must be at most ${DATA_SOURCE_DESCRIPTION_MAX} characters, without control characters.`,
    );
  }
  return trimmed;
}

/** The shape of a configuration name; whether PostgreSQL has it is the repository's to say. */
export function parseTextSearchConfig(value: string | null | undefined): string {
  if (value === undefined || value === null) return DEFAULT_TEXT_SEARCH_CONFIG;
  if (!TEXT_SEARCH_CONFIG_NAME.test(value)) {
    throw new InvalidRequestError(
      `textSearchConfig: must be a text-search configuration name such as simple, english or french; got "${value}".`,
    );
  }
  return value;
}
