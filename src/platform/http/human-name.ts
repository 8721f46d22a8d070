import { ValidateBy, ValidationOptions } from 'class-validator';
import { nameCharacterProblem } from 'src/platform/text/names';

/**
 * A name people will read (see `nameCharacterProblem`): no control, invisible or bidirectional
 * control character. Lengths stay with `MinLength`/`MaxLength`; a value that is not a string is
 * left to `IsString`.
 */
export function HumanName(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'humanName',
      validator: {
        validate: (value) => typeof value !== 'string' || nameCharacterProblem(value) === null,
        defaultMessage: (args) => nameCharacterProblem(String(args?.value)) ?? 'must be a name',
      },
    },
    options,
  );
}
