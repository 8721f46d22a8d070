import { expect } from '@jest/globals';
import type request from 'supertest';
import { apiSchemaValidator } from 'test/support/api-document';

declare module 'expect' {
  interface Matchers<R extends void | Promise<void>, T = unknown> {
    /** The value validates against `components.schemas[name]` of the app's OpenAPI document. */
    toMatchApiSchema(name: string): R;
    /** Keeps the declaration using T, which the augmented interface must declare. */
    readonly __received?: T;
  }
}

expect.extend({
  toMatchApiSchema(received: unknown, name: string) {
    const validate = apiSchemaValidator(name);
    const pass = validate(received) === true;
    const problems = (validate.errors ?? [])
      .map(
        (error) =>
          `  ${error.instancePath || '(root)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
      )
      .join('\n');
    return {
      pass,
      message: () =>
        pass
          ? `expected the value not to match the API schema "${name}"`
          : `expected the value to match the API schema "${name}":\n${problems}\nvalue: ${JSON.stringify(received)}`,
    };
  },
});

/** The answer is exactly the error envelope, with this status and type. */
export function expectError(res: request.Response, status: number, type: string): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: { error: { type, message: expect.any(String) } },
  });
  expect(res.body).toMatchApiSchema('ErrorResponse');
}

export { expect };
