import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { hasInvisibleCharacter } from 'src/platform/text/names';
import { EMAIL_PATTERN, FULL_NAME_MAX } from 'src/modules/identity/domain/user';

/** Checks shared by the REST DTOs' callers and the CLI, which has no DTO in front of it. */
export function checkEmail(email: string): void {
  if (!EMAIL_PATTERN.test(email.trim()) || email.length > 320) {
    throw new InvalidRequestError(`email: "${email}" is not an email address.`);
  }
}

export function checkFullName(fullName: string): void {
  const trimmed = fullName.trim();
  if (trimmed.length === 0 || trimmed.length > FULL_NAME_MAX) {
    throw new InvalidRequestError(`fullName: must be 1 to ${FULL_NAME_MAX} characters.`);
  }
}

function hasControlCharacter(text: string): boolean {
  return [...text].some((char) => {
    const code = char.charCodeAt(0);
    return code < 0x20 || code === 0x7f;
  });
}

export function checkName(field: string, name: string, max: number): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > max || hasControlCharacter(trimmed)) {
    throw new InvalidRequestError(`${field}: must be 1 to ${max} printable characters.`);
  }
  if (hasInvisibleCharacter(trimmed)) {
    throw new InvalidRequestError(
      `${field}: must not contain invisible characters (zero-width spaces or joiners, direction marks).`,
    );
  }
  return trimmed;
}
