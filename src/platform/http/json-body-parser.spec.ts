import { describe, expect, it } from '@jest/globals';
import { DomainError } from 'src/platform/errors/domain-error';
import {
  JSON_MAX_ARRAY_ITEMS,
  JSON_MAX_DEPTH,
  JSON_MAX_VALUES,
  parseJsonBody,
} from 'src/platform/http/json-body-parser';
import { UNSTORABLE_TEXT_MESSAGE } from 'src/platform/http/storable-text';

const JSON_TYPE = { 'content-type': 'application/json' };

const parse = (headers: Record<string, string>, text: string) => parseJsonBody(headers, Buffer.from(text));

function refusal(headers: Record<string, string>, text: string): { code: string; message: string } {
  try {
    parse(headers, text);
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('parsed without a refusal');
}

describe('parseJsonBody', () => {
  it('parses objects and arrays, and reads an empty body as an empty object', () => {
    expect(parse(JSON_TYPE, '{"a":[1,{"b":null}]}')).toEqual({ a: [1, { b: null }] });
    expect(parse(JSON_TYPE, '[1,2]')).toEqual([1, 2]);
    expect(parse(JSON_TYPE, '  \n')).toEqual({});
    expect(parse({ 'content-type': 'application/json; charset="UTF-8"' }, '{}')).toEqual({});
  });

  it('refuses text that is not JSON, and a bare JSON value', () => {
    expect(refusal(JSON_TYPE, '{"a":')).toEqual({
      code: 'invalid_request_error',
      message: 'The request body is not valid JSON.',
    });
    for (const text of ['"text"', '42', 'true', 'null']) {
      expect(refusal(JSON_TYPE, text)).toEqual({
        code: 'invalid_request_error',
        message: 'The JSON body must be an object or an array.',
      });
    }
  });

  it('refuses another charset and any content encoding with unsupported_media_type', () => {
    expect(refusal({ 'content-type': 'application/json; charset=latin1' }, '{}')).toEqual({
      code: 'unsupported_media_type',
      message: 'The JSON body must be UTF-8; got charset "latin1".',
    });
    expect(refusal({ ...JSON_TYPE, 'content-encoding': 'gzip' }, '{}')).toEqual({
      code: 'unsupported_media_type',
      message: 'The request body must not be compressed; got Content-Encoding "gzip".',
    });
    expect(parse({ ...JSON_TYPE, 'content-encoding': 'identity' }, '{}')).toEqual({});
  });

  it('names the first unstorable text and refuses nesting past the limit', () => {
    expect(refusal(JSON_TYPE, '{"a":{"b\\u0000":1}}').message).toBe(`a.b\u0000: ${UNSTORABLE_TEXT_MESSAGE}`);
    const deep = '['.repeat(JSON_MAX_DEPTH + 1) + ']'.repeat(JSON_MAX_DEPTH + 1);
    expect(refusal(JSON_TYPE, deep).message).toBe(
      `The JSON body is nested deeper than ${JSON_MAX_DEPTH} levels.`,
    );
    const allowed = '['.repeat(JSON_MAX_DEPTH) + ']'.repeat(JSON_MAX_DEPTH);
    expect(() => parse(JSON_TYPE, allowed)).not.toThrow();
  });

  it('refuses invalid UTF-8 instead of replacing it', () => {
    const bytes = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    expect(() => parseJsonBody(JSON_TYPE, bytes)).toThrow('The JSON body is not valid UTF-8.');
    expect(parse(JSON_TYPE, '{"name":"café ☕"}')).toEqual({ name: 'café ☕' });
  });

  it('refuses an array over its limit and a body of too many values before anything reads them', () => {
    const items = (count: number) => `[${Array(count).fill('{}').join(',')}]`;
    expect(() => parse(JSON_TYPE, `{"message":{"mentions":${items(JSON_MAX_ARRAY_ITEMS)}}}`)).not.toThrow();
    expect(refusal(JSON_TYPE, `{"message":{"mentions":${items(330_000)}}}`)).toEqual({
      code: 'invalid_request_error',
      message: `message.mentions: an array takes at most ${JSON_MAX_ARRAY_ITEMS} items; got 330000.`,
    });
    const many = Array.from({ length: 20 }, (_, i) => `"k${i}":${items(600)}`).join(',');
    expect(refusal(JSON_TYPE, `{${many}}`)).toEqual({
      code: 'invalid_request_error',
      message: `The JSON body holds more than ${JSON_MAX_VALUES} values.`,
    });
  });

  it('refuses prototype keys, at any depth', () => {
    for (const [text, path] of [
      ['{"__proto__":{"admin":true}}', '__proto__'],
      ['{"a":[{"constructor":{"prototype":1}}]}', 'a.0.constructor'],
    ]) {
      expect(refusal(JSON_TYPE, text).message).toBe(
        `${path}: property ${path.split('.').pop()} should not exist.`,
      );
    }
  });
});
