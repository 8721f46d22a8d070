import { describe, expect, it } from '@jest/globals';
import { ConfigError } from 'src/platform/config/config-schema';
import { DataSourcesConfig } from 'src/modules/data-sources/data-sources.config';

describe('DataSourcesConfig', () => {
  it('applies defaults when nothing is set, and reads each limit', () => {
    expect(DataSourcesConfig.from({})).toEqual({ maxPerDataSource: 100_000, maxTags: 64, maxParents: 64 });
    expect(
      DataSourcesConfig.from({
        DOCUMENTS_PER_DATA_SOURCE_MAX: '3',
        DOCUMENT_MAX_TAGS: '0',
        DOCUMENT_MAX_PARENTS: '1000',
      }),
    ).toEqual({ maxPerDataSource: 3, maxTags: 0, maxParents: 1000 });
  });

  const refused: [Record<string, string>, RegExp][] = [
    [
      { DOCUMENTS_PER_DATA_SOURCE_MAX: '0' },
      /^DOCUMENTS_PER_DATA_SOURCE_MAX must be an integer between 1 and/,
    ],
    [{ DOCUMENT_MAX_TAGS: '1001' }, /^DOCUMENT_MAX_TAGS must be an integer between 0 and 1000/],
    [{ DOCUMENT_MAX_PARENTS: '-1' }, /^DOCUMENT_MAX_PARENTS must be an integer between 0 and 1000/],
  ];
  for (const [env, message] of refused) {
    it(`refuses ${JSON.stringify(env)} with a line naming the variable`, () => {
      expect(() => DataSourcesConfig.from(env)).toThrow(ConfigError);
      expect(() => DataSourcesConfig.from(env)).toThrow(message);
    });
  }
});
