import { expect } from '@jest/globals';
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

export { expect };
