import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { UnreadBody } from 'src/platform/http/json-body-parser';

function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((text) =>
      // class-validator starts messages with the bare property name; name the full path instead.
      text.startsWith(`${error.property} `)
        ? `${path}${text.slice(error.property.length)}`
        : `${path}: ${text}`,
    );
    return [...own, ...describe(error.children ?? [], path)];
  });
}

/**
 * Path parameters are left as the router gives them: always strings, only the route's own names,
 * so validating them would only cost time on every request. Their checks (format, existence) are
 * the look-ups that follow. A route that takes a JSON body refuses any other body (415).
 */
class ApiValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'param') return Promise.resolve(value);
    if (value instanceof UnreadBody) return Promise.reject(value.refusal());
    return super.transform(value, metadata) as Promise<unknown>;
  }
}

/** Whitelisting, unknown keys refused, payloads transformed to DTO instances; failures name the field. */
export function createValidationPipe(): ValidationPipe {
  return new ApiValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new InvalidRequestError(describe(errors).join('; ') || 'Invalid request.'),
  });
}
