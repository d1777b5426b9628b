import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findCredential } from '../../src/auth/credentials.js';
import {
  generateTokenValue,
  isWellFormedTokenValue,
  hashTokenValue,
  TOKEN_PREFIX,
} from '../../src/auth/token-values.js';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
const none = { authorization: undefined, cookieToken: undefined, queryToken: undefined };

describe('token values', () => {
  it('carry the prefix, a checksum, and are unique', () => {
    const values = new Set(Array.from({ length: 1000 }, generateTokenValue));
    expect(values.size).toBe(1000);
    for (const v of values) {
      expect(v.startsWith(TOKEN_PREFIX)).toBe(true);
      expect(isWellFormedTokenValue(v)).toBe(true);
    }
  });
  it('reject any single-character change (checksum)', () => {
    const v = generateTokenValue();
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = TOKEN_PREFIX.length; i < v.length; i++) {
      const replacement = alphabet[(alphabet.indexOf(v[i]!) + 1) % alphabet.length]!;
      expect(isWellFormedTokenValue(v.slice(0, i) + replacement + v.slice(i + 1))).toBe(false);
    }
  });
  it('hash deterministically to 64 hex chars', () => {
    const v = generateTokenValue();
    expect(hashTokenValue(v)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashTokenValue(v)).toBe(hashTokenValue(v));
  });
});

describe('findCredential', () => {
  const token = generateTokenValue();
  it('finds nothing when nothing is presented', () => expect(findCredential(none)).toBeNull());
  it('reads every header scheme', () => {
    expect(findCredential({ ...none, authorization: `Token ${token}` })).toEqual({
      kind: 'api_token',
      value: token,
      source: 'header',
    });
    expect(findCredential({ ...none, authorization: `token ${token}` })).toEqual({
      kind: 'api_token',
      value: token,
      source: 'header',
    });
    expect(findCredential({ ...none, authorization: `Bearer ${JWT}` })).toEqual({
      kind: 'jwt',
      value: JWT,
      source: 'header',
    });
    expect(findCredential({ ...none, authorization: `Bearer ${token}` })).toEqual({
      kind: 'api_token',
      value: token,
      source: 'header',
    });
    const basic = Buffer.from(`api:${token}`).toString('base64');
    expect(findCredential({ ...none, authorization: `Basic ${basic}` })).toEqual({
      kind: 'api_token',
      value: token,
      source: 'header',
    });
  });
  it('reads the cookie and the query forms', () => {
    expect(findCredential({ ...none, cookieToken: JWT })).toEqual({ kind: 'jwt', value: JWT, source: 'cookie' });
    expect(findCredential({ ...none, queryToken: JWT })).toEqual({ kind: 'jwt', value: JWT, source: 'query' });
    expect(findCredential({ ...none, queryToken: `api:${token}` })).toEqual({
      kind: 'api_token',
      value: token,
      source: 'query',
    });
  });
  it('applies header > cookie > query', () => {
    expect(findCredential({ authorization: `Token ${token}`, cookieToken: JWT, queryToken: JWT })?.source).toBe(
      'header',
    );
    expect(findCredential({ authorization: undefined, cookieToken: JWT, queryToken: `api:${token}` })?.source).toBe(
      'cookie',
    );
  });
  it('marks junk as malformed instead of ignoring it', () => {
    for (const authorization of [
      'Token',
      'Token junk',
      'Basic !!!',
      `Basic ${Buffer.from(`bob:${token}`).toString('base64')}`,
      'Digest x',
      `Bearer ${'a'.repeat(9000)}`,
    ]) {
      expect(findCredential({ ...none, authorization })?.kind).toBe('malformed');
    }
    expect(findCredential({ ...none, queryToken: 'api:junk' })?.kind).toBe('malformed');
    expect(findCredential({ ...none, cookieToken: 'junk' })?.kind).toBe('malformed');
  });
  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(
        fc.option(fc.string({ unit: 'binary' })),
        fc.option(fc.string()),
        fc.option(fc.string()),
        (a, c, q) => {
          const r = findCredential({
            authorization: a ?? undefined,
            cookieToken: c ?? undefined,
            queryToken: q ?? undefined,
          });
          expect(r === null || ['jwt', 'api_token', 'malformed'].includes(r.kind)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
