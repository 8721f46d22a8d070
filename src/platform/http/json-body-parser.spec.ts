import { describe, expect, it } from '@jest/globals';
import { DomainError } from 'src/platform/errors/domain-error';
import { JSON_MAX_DEPTH, parseJsonBody } from 'src/platform/http/json-body-parser';
import { UNSTORABLE_TEXT_MESSAGE } from 'src/platform/http/storable-text';

const JSON_TYPE = { 'content-type': 'application/json' };

function refusal(headers: Record<string, string>, text: string): { code: string; message: string } {
  try {
    parseJsonBody(headers, text);
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('parsed without a refusal');
}

describe('parseJsonBody', () => {
  it('parses objects and arrays, and reads an empty body as an empty object', () => {
    expect(parseJsonBody(JSON_TYPE, '{"a":[1,{"b":null}]}')).toEqual({ a: [1, { b: null }] });
    expect(parseJsonBody(JSON_TYPE, '[1,2]')).toEqual([1, 2]);
    expect(parseJsonBody(JSON_TYPE, '  \n')).toEqual({});
    expect(parseJsonBody({ 'content-type': 'application/json; charset="UTF-8"' }, '{}')).toEqual({});
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
    expect(parseJsonBody({ ...JSON_TYPE, 'content-encoding': 'identity' }, '{}')).toEqual({});
  });

  it('names the first unstorable text and refuses nesting past the limit', () => {
    expect(refusal(JSON_TYPE, '{"a":{"b\\u0000":1}}').message).toBe(`a.b\u0000: ${UNSTORABLE_TEXT_MESSAGE}`);
    const deep = '['.repeat(JSON_MAX_DEPTH + 1) + ']'.repeat(JSON_MAX_DEPTH + 1);
    expect(refusal(JSON_TYPE, deep).message).toBe(
      `The JSON body is nested deeper than ${JSON_MAX_DEPTH} levels.`,
    );
    const allowed = '['.repeat(JSON_MAX_DEPTH) + ']'.repeat(JSON_MAX_DEPTH);
    expect(() => parseJsonBody(JSON_TYPE, allowed)).not.toThrow();
  });
});
