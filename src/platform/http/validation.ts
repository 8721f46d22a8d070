import { ValidationError, ValidationPipe } from '@nestjs/common';
import { InvalidRequestError } from 'src/platform/errors/domain-error';

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

/** Whitelisting, unknown keys refused, payloads transformed to DTO instances; failures name the field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new InvalidRequestError(describe(errors).join('; ') || 'Invalid request.'),
  });
}
