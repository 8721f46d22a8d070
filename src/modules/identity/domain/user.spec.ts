import { describe, expect, it } from '@jest/globals';
import { normaliseEmail, userNameParts } from 'src/modules/identity/domain/user';

describe('user names', () => {
  it('splits a full name on its first space and derives the username from the email', () => {
    expect(userNameParts({ email: 'Ada.Lovelace@Example.com', fullName: '  Ada   King Lovelace ' })).toEqual({
      fullName: 'Ada King Lovelace',
      firstName: 'Ada',
      lastName: 'King Lovelace',
      username: 'ada.lovelace',
    });
  });

  it('keeps a single name as the first name', () => {
    expect(userNameParts({ email: 'cher@example.com', fullName: 'Cher' })).toMatchObject({
      firstName: 'Cher',
      lastName: '',
    });
  });

  it('compares emails without case or surrounding spaces', () => {
    expect(normaliseEmail(' Bob@Example.COM ')).toBe('bob@example.com');
  });
});
