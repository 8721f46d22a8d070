import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ERROR_TYPES, ErrorType } from 'src/platform/errors/error-envelope';

class ErrorBody {
  @ApiProperty({ enum: ERROR_TYPES }) type!: ErrorType;
  @ApiProperty() message!: string;
}

export class ErrorResponse {
  @ApiProperty({ type: ErrorBody }) error!: ErrorBody;
}

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: malformed JSON, wrong types, unknown keys or a broken rule.',
  401: 'Missing, malformed or invalid API key, or a key of another workspace.',
  403: 'The key lacks a scope, or the caller may not do this.',
  404: 'Not found in this workspace.',
  409: 'Conflicts with the current state.',
  413: 'The body is too large.',
  429: 'Too many requests.',
};

/** Documents error statuses of a route, each answering with the error envelope. */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ApiExtraModels(ErrorResponse),
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: DESCRIPTIONS[status] ?? 'Error',
        schema: { $ref: getSchemaPath(ErrorResponse) },
      }),
    ),
  );
}
