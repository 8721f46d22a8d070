export interface User {
  id: number;
  sId: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  fullName: string;
  image: string | null;
  /** Identity provider kind; API-managed users are `api`. */
  provider: string;
  createdAt: Date;
  lastLoginAt: Date | null;
}

export interface NewUserDetails {
  email: string;
  fullName: string;
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const FULL_NAME_MAX = 200;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** First and last name split on the first space; username is the local part of the email. */
export function userNameParts(
  details: NewUserDetails,
): Pick<User, 'firstName' | 'lastName' | 'fullName' | 'username'> {
  const fullName = details.fullName.trim().replace(/\s+/g, ' ');
  const space = fullName.indexOf(' ');
  return {
    fullName,
    firstName: space === -1 ? fullName : fullName.slice(0, space),
    lastName: space === -1 ? '' : fullName.slice(space + 1),
    username: normaliseEmail(details.email).split('@')[0],
  };
}
