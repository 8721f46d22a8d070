import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import {
  REQUIRE_APPROVAL_TOOLS_MAX,
  TOOL_NAME_MAX,
  requireApprovalProblem,
} from 'src/modules/agents/domain/catalogue';

/**
 * Documents `requireApproval`, in requests and answers: `"never"`, `"always"` or a list of tool
 * names, a union the Swagger plugin cannot express.
 */
export function ApiRequireApproval(options: ApiPropertyOptions = {}): PropertyDecorator {
  return ApiProperty({
    oneOf: [
      { type: 'string', enum: ['never', 'always'] },
      {
        type: 'array',
        items: { type: 'string', minLength: 1, maxLength: TOOL_NAME_MAX },
        minItems: 1,
        maxItems: REQUIRE_APPROVAL_TOOLS_MAX,
        uniqueItems: true,
      },
    ],
    description:
      "Which tools of the server wait for a user's approval before they run, when called through this " +
      'view: `"never"` (none), `"always"` (all), or the names of those that do, exactly as the server ' +
      'lists them. Names the server does not list (now) are kept, and match nothing until it lists them.',
    example: ['delete_record'],
    ...options,
  });
}

/** `"never"`, `"always"` or a list of tool names (see `requireApprovalProblem`). */
export function IsRequireApproval(): PropertyDecorator {
  return ValidateBy({
    name: 'isRequireApproval',
    validator: {
      validate: (value) => requireApprovalProblem(value) === null,
      defaultMessage: (args) => `${args?.property} ${requireApprovalProblem(args?.value)}`,
    },
  });
}
