// The authorization matrix's endpoints: per endpoint, the request and the status expected for a
// plain user (acting on itself), a plain user acting on another account, and an administrator.
export type Caller = 'none' | 'plain' | 'other' | 'admin' | 'locked' | 'cancelled';
export const CALLERS: Caller[] = ['none', 'plain', 'other', 'admin', 'locked', 'cancelled'];

export interface Case {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** Path and body for a caller; `self` is the caller's username, `target` another account. */
  request: (caller: Caller, self: string) => { path: string; body?: unknown };
  /** Expected status for plain (acting on self), other (acting on target) and admin (on target). */
  plain: number;
  other: number;
  admin: number;
}

/** A wrong code for the enrolments the matrix makes (a fresh random secret's code near now is
 *  this one 3 times in a million). */
const WRONG_CODE = '000000';

let seq = 0;
const uniq = () => `n${++seq}`;
export const target = 'target';
const onUser = (caller: Caller, self: string) => (caller === 'plain' ? self : target);

export const CASES: Case[] = [
  {
    name: 'profile (own)',
    method: 'GET',
    request: () => ({ path: '/api/core/account/profile' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
  {
    name: 'profile/{username}',
    method: 'GET',
    request: (c, s) => ({ path: `/api/core/account/profile/${onUser(c, s)}` }),
    plain: 200,
    other: 403,
    admin: 200,
  },
  {
    name: 'profile-update',
    method: 'POST',
    request: (c, s) => ({
      path: '/api/core/account/profile-update',
      body: { username: onUser(c, s), user_first_name: 'X' },
    }),
    plain: 200,
    other: 403,
    admin: 200,
  },
  {
    name: 'browse',
    method: 'GET',
    request: () => ({ path: '/api/core/account/browse' }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'copy',
    method: 'POST',
    request: () => ({ path: `/api/core/account/copy/source/${target}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'lock',
    method: 'POST',
    request: () => ({ path: `/api/core/account/lock/${target}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'unlock',
    method: 'POST',
    request: () => ({ path: `/api/core/account/unlock/${target}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'cancel',
    method: 'POST',
    request: () => ({ path: `/api/core/account/cancel/${target}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'reactivate',
    method: 'POST',
    request: () => ({ path: `/api/core/account/reactivate/${target}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'context (own)',
    method: 'POST',
    request: () => ({ path: '/api/core/account/context/demo' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
  {
    name: 'context/{username}',
    method: 'POST',
    request: (c, s) => ({ path: `/api/core/account/context/demo/${onUser(c, s)}` }),
    plain: 200,
    other: 403,
    admin: 200,
  },
  {
    name: 'create account',
    method: 'POST',
    request: () => ({ path: '/api/core/account/create', body: { username: uniq(), password: 'long-enough-1' } }),
    plain: 403,
    other: 403,
    admin: 201,
  },
  {
    name: 'password/{username}',
    method: 'POST',
    request: () => ({
      path: `/api/core/account/password/${target}`,
      body: { password: 'a new password for the account' },
    }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'role grant',
    method: 'POST',
    request: () => ({ path: `/api/core/account/role/grant/${target}/app_other` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'role revoke',
    method: 'POST',
    request: () => ({ path: `/api/core/account/role/revoke/${target}/app_other` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'account session',
    method: 'GET',
    request: () => ({ path: '/api/core/account/session' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
  {
    name: 'account list',
    method: 'GET',
    request: () => ({ path: '/api/core/account/list?q=t&sort=name&limit=10' }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'roles',
    method: 'GET',
    request: () => ({ path: '/api/core/roles' }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'team members',
    method: 'GET',
    request: () => ({ path: '/api/core/team/members/MX' }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'system instance',
    method: 'GET',
    request: () => ({ path: '/api/core/system/instance' }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'team browse',
    method: 'GET',
    request: () => ({ path: '/api/core/team/browse' }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'team create',
    method: 'POST',
    request: () => ({ path: '/api/core/team/create', body: { team_short: uniq(), team_name: 'T' } }),
    plain: 403,
    other: 403,
    admin: 201,
  },
  {
    name: 'team member add',
    method: 'POST',
    request: () => ({ path: `/api/core/team/member/add/MX/${target}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'team member remove',
    method: 'POST',
    request: () => ({ path: `/api/core/team/member/remove/MX/${target}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'system (obsolete)',
    method: 'GET',
    request: () => ({ path: '/api/core/system' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
  {
    name: 'token/user',
    method: 'GET',
    request: () => ({ path: '/api/core/token/user' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
  {
    name: 'token/browse',
    method: 'GET',
    request: () => ({ path: '/api/core/token/browse' }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'token/user/{username}',
    method: 'GET',
    request: (c, s) => ({ path: `/api/core/token/user/${onUser(c, s)}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'token/create/{name}',
    method: 'POST',
    request: () => ({ path: `/api/core/token/create/${uniq()}` }),
    plain: 201,
    other: 201,
    admin: 201,
  },
  {
    name: 'token/create/{name}/{username}',
    method: 'POST',
    request: (c, s) => ({ path: `/api/core/token/create/${uniq()}/${onUser(c, s)}` }),
    plain: 403,
    other: 403,
    admin: 201,
  },
  {
    name: 'token/delete/{name}/{username}',
    method: 'POST',
    request: (c, s) => ({ path: `/api/core/token/delete/victim/${onUser(c, s)}` }),
    plain: 404,
    other: 403,
    admin: 200,
  },
  {
    // The credential of the second step is its mfa_token: none of these callers has a live one.
    name: 'login/mfa (no live mfa_token)',
    method: 'POST',
    request: () => ({ path: '/api/core/account/login/mfa', body: { mfa_token: 'mfa_none', code: WRONG_CODE } }),
    plain: 401,
    other: 401,
    admin: 401,
  },
  {
    name: 'mfa status',
    method: 'GET',
    request: () => ({ path: '/api/core/account/mfa' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
  {
    name: 'mfa totp enrol',
    method: 'POST',
    request: () => ({ path: '/api/core/account/mfa/totp' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
  {
    name: 'mfa totp confirm',
    method: 'POST',
    request: () => ({ path: '/api/core/account/mfa/totp/confirm', body: { code: WRONG_CODE } }),
    plain: 400,
    other: 400,
    admin: 400,
  },
  {
    name: 'mfa recovery-codes (no confirmed factor)',
    method: 'POST',
    request: () => ({ path: '/api/core/account/mfa/recovery-codes' }),
    plain: 409,
    other: 409,
    admin: 409,
  },
  {
    // plain and other hold the same credential: plain removes the pending enrolment, other finds none.
    name: 'mfa totp remove',
    method: 'DELETE',
    request: () => ({ path: '/api/core/account/mfa/totp' }),
    plain: 200,
    other: 404,
    admin: 200,
  },
  {
    name: 'mfa reset/{username}',
    method: 'POST',
    request: (c, s) => ({ path: `/api/core/account/mfa/reset/${onUser(c, s)}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'logout',
    method: 'GET',
    request: () => ({ path: '/api/core/account/logout' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
  {
    name: 'ping (no auth needed)',
    method: 'GET',
    request: () => ({ path: '/api/core/system/ping' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
];
