// A token never outlives, nor outranks, the credential that created it: an expiring API token,
// and a JWT obtained by logging in with one, make tokens that expire no later than that token
// (clamped, shown in token_expires_at) and hold no role outside its scope. A password session
// carries the account's own authority, so its tokens may live as long as asked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds, dropTestDatabase } from '../support/databases.js';
import { startAccountsFixture, type AccountsFixture } from '../support/accounts-fixture.js';

const DAY_MS = 86_400_000;
const expiryMs = (item: { token_expires_at: string | null }) =>
  item.token_expires_at === null ? null : Date.parse(`${item.token_expires_at}Z`);

describe.each(testDatabaseKinds())('tokens made by limited credentials on %s', (kind) => {
  let f: AccountsFixture;
  let ownerJwt: string;

  beforeAll(async () => {
    f = await startAccountsFixture(kind);
    ownerJwt = await f.user('maker', { roles: ['sys_tokens', 'app_demo'] });
    await f.user('someone', { roles: ['app_demo'] });
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  /** Creates a token with `credential` (a JWT or a token value); answers the response. */
  const create = (credential: string, path: string) =>
    f.inst.request(path, { method: 'POST', headers: { Authorization: `Bearer ${credential}` } });
  const made = async (credential: string, path: string) => {
    const r = await create(credential, path);
    expect(r.status, r.text).toBe(201);
    return r.body.data.item;
  };
  const loginWith = async (value: string) => {
    const r = await f.inst.login('api', value);
    expect(r.status, r.text).toBe(200);
    return r.body.data.token as string;
  };

  it('an expiring token makes tokens that expire no later than itself, asked for longer or for never', async () => {
    const daily = await made(ownerJwt, '/api/core/token/create/daily?expires_in_days=1');
    const dailyEnd = expiryMs(daily);
    const never = await made(daily.value, '/api/core/token/create/from-daily');
    expect(never.token_expires_at).toBe(daily.token_expires_at);
    const decade = await made(daily.value, '/api/core/token/create/from-daily-long?expires_in_days=3650');
    expect(decade.token_expires_at).toBe(daily.token_expires_at);
    expect(expiryMs(decade)).toBe(dailyEnd);
  });

  it('keeps a shorter expiry that was asked for', async () => {
    const weekly = await made(ownerJwt, '/api/core/token/create/weekly?expires_in_days=7');
    const short = await made(weekly.value, '/api/core/token/create/from-weekly?expires_in_days=2');
    expect(expiryMs(short)).toBe((expiryMs({ token_expires_at: short.token_created_at }) as number) + 2 * DAY_MS);
    expect(expiryMs(short)).toBeLessThan(expiryMs(weekly) as number);
  });

  it('a JWT obtained with an expiring token makes tokens that expire no later than that token', async () => {
    const daily = await made(ownerJwt, '/api/core/token/create/daily-for-jwt?expires_in_days=1');
    const session = await loginWith(daily.value);
    // The JWT carries the token's end to the second: what it makes ends within that second.
    const tokenEnd = expiryMs(daily) as number;
    for (const path of [
      '/api/core/token/create/from-jwt',
      '/api/core/token/create/from-jwt-long?expires_in_days=3650',
    ]) {
      const item = await made(session, path);
      expect(expiryMs(item), path).toBe(Math.floor(tokenEnd / 1000) * 1000);
    }
  });

  it('an administrator with an expiring token gives another user a token that expires no later', async () => {
    const adminToken = await made(f.adminJwt, '/api/core/token/create/admin-daily?expires_in_days=1');
    const forOther = await made(adminToken.value, '/api/core/token/create/handed/someone?expires_in_days=30');
    expect(forOther.username).toBe('someone');
    expect(forOther.token_expires_at).toBe(adminToken.token_expires_at);
    const viaJwt = await made(await loginWith(adminToken.value), '/api/core/token/create/handed-jwt/someone');
    expect(expiryMs(viaJwt)).toBe(Math.floor((expiryMs(adminToken) as number) / 1000) * 1000);
  });

  it('a password session and a token without expiry still make tokens that never expire', async () => {
    expect((await made(ownerJwt, '/api/core/token/create/by-password')).token_expires_at).toBeNull();
    const lasting = await made(ownerJwt, '/api/core/token/create/lasting');
    expect((await made(lasting.value, '/api/core/token/create/from-lasting')).token_expires_at).toBeNull();
    const session = await loginWith(lasting.value);
    expect((await made(session, '/api/core/token/create/from-lasting-jwt')).token_expires_at).toBeNull();
  });

  it('a JWT obtained with a scoped token makes tokens only within that scope', async () => {
    const scoped = await made(ownerJwt, '/api/core/token/create/tokens-only?roles=sys_tokens');
    const session = await loginWith(scoped.value);
    expect((await made(session, '/api/core/token/create/from-scoped-jwt')).roles).toEqual(['sys_tokens']);
    const wider = await create(session, '/api/core/token/create/wider?roles=app_demo');
    expect(wider.status, wider.text).toBe(400);
    expect(wider.body.data.code).toBe('role_not_held');
  });
});
