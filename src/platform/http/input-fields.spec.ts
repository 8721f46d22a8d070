import { describe, expect, it } from '@jest/globals';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  Decimal,
  EmailAddress,
  Flag,
  HttpUrl,
  Integer,
  List,
  OneOf,
  SidRef,
  Text,
} from 'src/platform/http/input-fields';

class Sample {
  @Text({ min: 1, max: 5, human: true })
  name!: string;

  @Text({ max: 3, pattern: /^[a-z]+$/, message: 'code must be lower-case letters', presence: 'optional' })
  code?: string;

  @SidRef({ presence: 'nullable' })
  parentId!: string | null;

  @OneOf(['a', 'b'], { presence: 'omittable' })
  kind?: 'a' | 'b';

  @Integer({ min: 1, max: 10, presence: 'optional' })
  count?: number;

  @Decimal({ min: 0, max: 1, presence: 'optional' })
  ratio?: number;

  @Flag({ presence: 'optional' })
  enabled?: boolean;

  @HttpUrl({ max: 30, presence: 'optional' })
  url?: string;

  @EmailAddress({ presence: 'optional' })
  email?: string;

  @List({ min: 1, max: 2, presence: 'optional' })
  @SidRef({ each: true })
  ids?: string[];
}

/** Where @nestjs/swagger keeps a property's documentation. */
const SWAGGER_PROPERTIES = 'swagger/apiModelProperties';

const valid = { name: 'Ada', parentId: null };

/** The properties that failed for `body`, each with its messages. */
function failures(body: object): Record<string, string[]> {
  const errors = validateSync(plainToInstance(Sample, body), { forbidUnknownValues: false });
  return Object.fromEntries(errors.map((error) => [error.property, Object.values(error.constraints ?? {})]));
}

describe('input fields', () => {
  it('accepts a body that keeps every rule, absent optional fields included', () => {
    expect(failures(valid)).toEqual({});
    expect(
      failures({
        ...valid,
        code: 'abc',
        parentId: 'cnv_1',
        kind: 'b',
        count: 10,
        ratio: 0.5,
        enabled: false,
        url: 'http://localhost:3000/x',
        email: 'ada@example.com',
        ids: ['a_1', 'b_2'],
      }),
    ).toEqual({});
  });

  it('refuses what breaks a bound, a pattern, a type or a name rule, with the given message', () => {
    const found = failures({
      name: 'Ad\u202Ea',
      code: 'AB',
      parentId: 'not an sid',
      kind: 'c',
      count: 1.5,
      ratio: Number.POSITIVE_INFINITY,
      enabled: 'yes',
      url: 'ftp://example.com',
      email: 'nobody',
      ids: ['a_1', 'b_2', 'c_3'],
    });
    expect(Object.keys(found).sort()).toEqual(
      ['code', 'count', 'email', 'enabled', 'ids', 'kind', 'name', 'parentId', 'ratio', 'url'].sort(),
    );
    expect(found.code).toEqual(['code must be lower-case letters']);
    expect(failures({ ...valid, name: '' }).name).toBeDefined();
    expect(failures({ ...valid, name: 'Adalovelace' }).name).toBeDefined();
    expect(failures({ ...valid, ids: [] }).ids).toBeDefined();
    expect(failures({ ...valid, ids: ['a_1', 'no way'] }).ids).toBeDefined();
  });

  it('tells the three presences apart: optional, nullable and omittable', () => {
    expect(failures({ name: 'Ada' }).parentId).toBeDefined();
    expect(failures({ ...valid, code: null }).code).toBeUndefined();
    expect(failures({ ...valid, kind: null }).kind).toBeDefined();
    expect(failures({ ...valid, kind: undefined }).kind).toBeUndefined();
  });

  it('documents the bounds it validates', () => {
    const documented = (property: string) =>
      Reflect.getMetadata(SWAGGER_PROPERTIES, Sample.prototype, property) as Record<string, unknown>;
    expect(documented('name')).toMatchObject({ minLength: 1, maxLength: 5 });
    expect(documented('kind')).toMatchObject({ enum: ['a', 'b'] });
    expect(documented('count')).toMatchObject({ minimum: 1, maximum: 10 });
    expect(documented('url')).toMatchObject({ format: 'uri', maxLength: 30 });
    expect(documented('email')).toMatchObject({ format: 'email' });
    expect(documented('ids')).toMatchObject({ minItems: 1, maxItems: 2 });
    expect(documented('code')).not.toHaveProperty('minLength');
  });
});
