import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import {
  ConfigReader,
  PendingJsonBody,
  UnreadBody,
  jsonBodyLimitOf,
} from 'src/platform/http/json-body-parser';

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
  constructor(
    options: ConstructorParameters<typeof ValidationPipe>[0],
    private readonly readConfig: ConfigReader,
  ) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'param') return value;
    if (value instanceof UnreadBody) throw value.refusal();
    if (value instanceof PendingJsonBody) {
      return super.transform(await value.read(jsonBodyLimitOf(metadata.metatype, this.readConfig)), metadata);
    }
    return super.transform(value, metadata) as Promise<unknown>;
  }
}

/** Whitelisting, unknown keys refused, payloads transformed to DTO instances; failures name the field. */
/** A refusal names the first few problems: enough to fix the request, never a body of megabytes. */
export const MAX_LISTED_PROBLEMS = 10;

function refusalMessage(errors: ValidationError[]): string {
  const problems = describe(errors);
  if (problems.length === 0) return 'Invalid request.';
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).join('; ');
  const more = problems.length - MAX_LISTED_PROBLEMS;
  return more > 0 ? `${listed}; and ${more} more problem${more === 1 ? '' : 's'}.` : listed;
}

export function createValidationPipe(readConfig: ConfigReader): ValidationPipe {
  return new ApiValidationPipe(
    {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new InvalidRequestError(refusalMessage(errors)),
    },
    readConfig,
  );
}
