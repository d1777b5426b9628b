// Exact JSON shape checks: the same keys, each of the stated JSON type.
import { expect } from 'vitest';

export type JsonType =
  | 'string'
  | 'boolean'
  | 'integer'
  | 'number'
  | 'object'
  | 'array'
  | 'null'
  | 'uuid'
  | 'string|null'
  | 'uuid|null';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function matches(v: unknown, t: string): boolean {
  return t.split('|').some((one) => {
    if (one === 'uuid') return typeof v === 'string' && UUID.test(v);
    if (one === 'number') return typeof v === 'number';
    return typeOf(v) === one;
  });
}

export function expectShape(value: unknown, shape: Record<string, JsonType>, label = 'value'): void {
  expect(typeOf(value), `${label} is an object`).toBe('object');
  const obj = value as Record<string, unknown>;
  expect(Object.keys(obj).sort(), `${label} keys`).toEqual(Object.keys(shape).sort());
  for (const [k, t] of Object.entries(shape)) {
    expect(matches(obj[k], t), `${label}.${k} should be ${t}, is ${JSON.stringify(obj[k])}`).toBe(true);
  }
}

export const PROFILE_USER_SHAPE: Record<string, JsonType> = {
  username: 'string',
  emailconfirmed: 'boolean',
  phonenumber: 'string',
  team_id: 'uuid',
  team_name: 'string',
  user_app_name: 'string',
  user_first_name: 'string',
  user_last_name: 'string',
  user_home: 'string|null',
  user_color: 'string',
  user_short: 'string',
  user_currency: 'string',
  user_properties: 'object',
};

export const PROFILE_TEAM_SHAPE: Record<string, JsonType> = {
  team_id: 'uuid',
  team_short: 'string',
  team_name: 'string',
  teamuser_lvl: 'string|null',
  team_type: 'string',
};

export const ACCOUNT_ITEM_SHAPE: Record<string, JsonType> = {
  id: 'uuid',
  username: 'string',
  phonenumber: 'string',
  emailconfirmed: 'boolean',
  lockoutenabled: 'boolean',
  islocked: 'boolean',
  isactive: 'boolean',
  lockoutend: 'string|null',
  lockoutending: 'string|null',
  lastActivity: 'string',
  team_id: 'uuid',
  team_name: 'string',
  user_currency: 'string',
  user_home: 'string|null',
  user_app_name: 'string',
  teams: 'integer',
  roles: 'integer',
  user_first_name: 'string',
  user_last_name: 'string',
  user_color: 'string',
  user_avatar: 'string|null',
  user_short: 'string',
};

export const ENVELOPE_SHAPE: Record<string, JsonType> = {
  success: 'boolean',
  message: 'string',
  requestID: 'string',
  executed_at: 'string',
  data: 'object',
};
