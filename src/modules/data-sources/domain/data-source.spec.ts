import { describe, expect, it } from '@jest/globals';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import {
  CONNECTOR_PROVIDERS,
  DATA_SOURCE_DESCRIPTION_MAX,
  DATA_SOURCE_NAME_MAX,
  checkDataSourceDescription,
  checkDataSourceName,
  dataSourceCategory,
  isAssistantDefaultSelected,
  parseConnectorProvider,
} from 'src/modules/data-sources/domain/data-source';

describe('data source category', () => {
  it('is folder without a connector, website for the web crawler, managed for every other connector', () => {
    expect(dataSourceCategory(null)).toBe('folder');
    expect(dataSourceCategory('webcrawler')).toBe('website');
    for (const provider of CONNECTOR_PROVIDERS.filter((p) => p !== 'webcrawler')) {
      expect(dataSourceCategory(provider)).toBe('managed');
    }
  });

  it('makes only managed data sources selected by default for agents', () => {
    expect(isAssistantDefaultSelected('notion')).toBe(true);
    expect(isAssistantDefaultSelected('webcrawler')).toBe(false);
    expect(isAssistantDefaultSelected(null)).toBe(false);
  });
});

describe('connector provider', () => {
  it('reads absent or null as a folder and accepts the known connectors', () => {
    expect(parseConnectorProvider(undefined)).toBeNull();
    expect(parseConnectorProvider(null)).toBeNull();
    expect(parseConnectorProvider('google_drive')).toBe('google_drive');
  });

  it('refuses an unknown connector, naming the field and the allowed values', () => {
    expect(() => parseConnectorProvider('dropbox')).toThrow(InvalidRequestError);
    expect(() => parseConnectorProvider('Slack')).toThrow(/^connectorProvider: .*slack.*"Slack"/);
  });
});

describe('data source name and description', () => {
  it('trims the name and refuses empty, too long or control characters', () => {
    expect(checkDataSourceName('  Handbook ')).toBe('Handbook');
    for (const bad of ['', '   ', 'a'.repeat(DATA_SOURCE_NAME_MAX + 1), 'line\nbreak', 'nul\u0000']) {
      expect(() => checkDataSourceName(bad)).toThrow(/^name: /);
    }
  });

  it('defaults the description to empty, keeps line breaks and refuses the rest', () => {
    expect(checkDataSourceDescription(undefined)).toBe('');
    expect(checkDataSourceDescription(' Two\nlines ')).toBe('Two\nlines');
    expect(() => checkDataSourceDescription('a'.repeat(DATA_SOURCE_DESCRIPTION_MAX + 1))).toThrow(
      /^description: /,
    );
    expect(() => checkDataSourceDescription('bell\u0007')).toThrow(/^description: /);
  });
});
