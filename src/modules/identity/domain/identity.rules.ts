import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { checkName } from 'src/platform/text/names';
import { EMAIL_PATTERN, FULL_NAME_MAX } from 'src/modules/identity/domain/user';

/** Checks shared by the REST DTOs' callers and the CLI, which has no DTO in front of it. */
export function checkEmail(email: string): void {
  if (!EMAIL_PATTERN.test(email.trim()) || email.length > 320) {
    throw new InvalidRequestError(`email: "${email}" is not an email address.`);
  }
}

export function checkFullName(fullName: string): void {
  checkName('fullName', fullName, FULL_NAME_MAX);
}
