// Username rules follow ASP.NET Identity's defaults so imported users keep their names:
// letters, digits and `-._@+`, compared case-insensitively via the upper-cased form.
export const USERNAME_PATTERN = '^[A-Za-z0-9._@+-]{1,256}$';
const usernameRe = new RegExp(USERNAME_PATTERN);

/** Reserved: `api` as a login username means "the password is an API token". */
export const API_LOGIN_USERNAME = 'api';

export const normalizeUsername = (u: string): string => u.toUpperCase();

/** Whether two usernames name the same account (compared like the database does). */
export const sameUsername = (a: string, b: string): boolean => normalizeUsername(a) === normalizeUsername(b);

export function isValidUsername(u: string): boolean {
  return usernameRe.test(u) && normalizeUsername(u) !== 'API';
}
