import { describe, expect, it } from '@jest/globals';
import { ConfigError, ConfigSchema, configToken } from 'src/platform/config/config-schema';
import { Configuration } from 'src/platform/config/configuration';
import { boolean, duration, integer, list, text, url } from 'src/platform/config/variables';

const schema = ConfigSchema.of({
  size: integer('WIDGET_SIZE_MB', {
    default: 2,
    min: 1,
    max: 10,
    description: 'Size of a widget, in MiB.',
  }).map((mib) => mib * 1024),
  remote: {
    url: url('WIDGET_URL', { protocols: ['https:'], description: 'Where widgets come from.' }),
    key: text('WIDGET_KEY', { description: 'Key of `WIDGET_URL`.' }).requires('WIDGET_URL'),
    timeoutMs: duration('WIDGET_TIMEOUT_MS', { default: 1_000, description: 'Timeout.' }).onlyWith(
      'WIDGET_URL',
    ),
  },
  tags: list('WIDGET_TAGS', { description: 'Tags.' }),
  cached: boolean('WIDGET_CACHED', {
    default: null,
    shownDefault: '`true` with a URL',
    description: 'Cache.',
  }),
}).then((values, refuse) => {
  if (values.size > 8 * 1024 && values.remote.url === null)
    return refuse('WIDGET_SIZE_MB above 8 needs WIDGET_URL.');
  return { ...values, cached: values.cached ?? values.remote.url !== null };
});

abstract class WidgetConfig extends configToken(schema) {}

describe('ConfigSchema', () => {
  it('lists its variables in declaration order, as the docs show them', () => {
    expect(schema.variables).toEqual([
      { name: 'WIDGET_SIZE_MB', shownDefault: '`2`', description: 'Size of a widget, in MiB.' },
      { name: 'WIDGET_URL', shownDefault: '_(unset)_', description: 'Where widgets come from.' },
      { name: 'WIDGET_KEY', shownDefault: '_(unset)_', description: 'Key of `WIDGET_URL`.' },
      { name: 'WIDGET_TIMEOUT_MS', shownDefault: '`1000`', description: 'Timeout.' },
      { name: 'WIDGET_TAGS', shownDefault: '_(none)_', description: 'Tags.' },
      { name: 'WIDGET_CACHED', shownDefault: '`true` with a URL', description: 'Cache.' },
    ]);
  });

  it('reads values into the shape the code uses, frozen', () => {
    const config = WidgetConfig.from({
      WIDGET_SIZE_MB: ' 3 ',
      WIDGET_URL: 'https://w.example',
      WIDGET_KEY: 'k',
    });
    expect(config).toEqual({
      size: 3 * 1024,
      remote: { url: 'https://w.example', key: 'k', timeoutMs: 1_000 },
      tags: [],
      cached: true,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names the first faulty variable, in declaration order, on one line', () => {
    expect(() =>
      WidgetConfig.from({ WIDGET_TIMEOUT_MS: 'x', WIDGET_URL: 'http://w', WIDGET_SIZE_MB: '0' }),
    ).toThrow(new ConfigError('WIDGET_SIZE_MB must be an integer between 1 and 10, got "0".'));
  });

  it('refuses a variable set without the one it requires, before checking either', () => {
    expect(() => WidgetConfig.from({ WIDGET_KEY: 'k', WIDGET_SIZE_MB: 'huge' })).toThrow(
      'WIDGET_KEY is set but WIDGET_URL is not: set both, or neither.',
    );
  });

  it('does not read a variable that only means something with another, when that one is unset', () => {
    expect(WidgetConfig.from({ WIDGET_TIMEOUT_MS: 'x' }).remote.timeoutMs).toBe(1_000);
    expect(() => WidgetConfig.from({ WIDGET_TIMEOUT_MS: 'x', WIDGET_URL: 'https://w' })).toThrow(
      /^WIDGET_TIMEOUT_MS must be a number of milliseconds/,
    );
  });

  it('applies the rules that span variables once each variable is valid', () => {
    expect(() => WidgetConfig.from({ WIDGET_SIZE_MB: '9' })).toThrow(
      'WIDGET_SIZE_MB above 8 needs WIDGET_URL.',
    );
  });
});

describe('Configuration', () => {
  it('reads each configuration and hands each its own values', () => {
    const configuration = Configuration.read([WidgetConfig], { WIDGET_TAGS: 'a, b' });
    expect(configuration.tokens).toEqual([WidgetConfig]);
    expect(configuration.get(WidgetConfig).tags).toEqual(['a', 'b']);
  });

  it('refuses a variable that two configurations declare', () => {
    abstract class OtherConfig extends configToken(
      ConfigSchema.of({
        size: integer('WIDGET_SIZE_MB', { default: 1, min: 1, max: 2, description: 'Again.' }),
      }),
    ) {}
    expect(() => Configuration.read([WidgetConfig, OtherConfig], {})).toThrow(
      'WIDGET_SIZE_MB is declared by two configurations.',
    );
  });
});
