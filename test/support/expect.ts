import { expect } from '@jest/globals';
import type request from 'supertest';
import { apiSchemaValidator } from 'test/support/api-document';
import { dustSchemaProblems } from 'test/support/dust-schemas';

declare module 'expect' {
  interface Matchers<R extends void | Promise<void>, T = unknown> {
    /**
     * The value validates against `components.schemas[name]` of the app's OpenAPI document, and
     * against the schema Dust's client has for that shape, when it has one (test/support/dust-schemas).
     */
    toMatchApiSchema(name: string): R;
    /** Keeps the declaration using T, which the augmented interface must declare. */
    readonly __received?: T;
  }
}

expect.extend({
  toMatchApiSchema(received: unknown, name: string) {
    const validate = apiSchemaValidator(name);
    const matchesApi = validate(received) === true;
    const problems = (validate.errors ?? [])
      .map(
        (error) =>
          `  ${error.instancePath || '(root)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
      )
      .join('\n');
    const dustProblems = dustSchemaProblems(name, received);
    const pass = matchesApi && dustProblems.length === 0;
    const report = [
      matchesApi ? '' : `OpenAPI schema "${name}":\n${problems}`,
      dustProblems.length === 0 ? '' : `Dust's client schema:\n${dustProblems.join('\n')}`,
    ].filter(Boolean);
    return {
      pass,
      message: () =>
        pass
          ? `expected the value not to match the API schema "${name}"`
          : `expected the value to match the API schema "${name}":\n${report.join('\n')}\nvalue: ${JSON.stringify(received)}`,
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
