import { ValidateBy } from 'class-validator';
import { requireApprovalProblem } from 'src/modules/agents/domain/catalogue';

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
