// A query credential is redacted whatever its spelling. Each spelling is also
// read by Fastify's own query parser here, so the test shows which ones the server would take
// as `ptoken`; test/integration/query-credential-redaction.test.ts sends them with real secrets.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { isCredentialKey, looseDecode, redactRequestUrl, redactText, redactUrl } from '../../src/http/url-redaction.js';
import { createLogger } from '../../src/http/logger.js';
import { redactCredentialShapes } from '../../src/lib/credential-shapes.js';

const SECRET = 'pct_Zq3xW9vLr2Kt8Yh5Nb1Mc7Pd4Fg6Js0Aa1b2c3';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJxdWlubiJ9.Xk2mQ8rT5wY1zB4nC7vD0eF3gH6jK9lM2pR5sU8x';
const OPAQUE = 'Opaque-Secret-Value-42'; // no credential shape: only the key rule can catch it

/** [spelling of `?<key>=`, does fast-querystring read the key as exactly `ptoken`]. */
const KEYS: Array<[string, boolean]> = [
  ['ptoken', true],
  ['%70token', true],
  ['ptoke%6E', true],
  ['ptoke%6e', true],
  ['%70%74%6F%6B%65%6E', true],
  ['p%74o%6Ben', true],
  ['%50token', false], // Ptoken
  ['PTOKEN', false],
  ['pToKeN', false],
  ['%2570token', false], // double encoding: the parser sees %70token
  ['ptoken+', false],
  ['ptoken%20', false],
  ['%20ptoken', false],
  ['ptoken%00', false],
  ['pto%00ken', false],
  ['%C1%B0token', false], // overlong UTF-8 `p`
  ['pt%C1%AFken', false], // overlong UTF-8 `o`
  ['%E0%81%B0token', false], // 3-byte overlong `p`
  ['%EF%BD%90token', false], // fullwidth ｐ
  ['ptoken[]', false],
  ['ptoken[0]', false],
  ['ptoken%ZZ', false], // broken escape: the parser keeps the key raw
  ['%u0070token', false],
  ['?ptoken', false],
  ['#ptoken', false],
  ['x#ptoken', false],
  ['a=1;ptoken', false], // a `;` separator the parser does not split at
  ['=ptoken', false],
  ['p+token', false],
  ['P%54OKEN', false],
  ['ptoken%3D' + OPAQUE, false], // an encoded `=`: the secret is in the parser's key too
];

describe('redactUrl', () => {
  // Fastify's default query parser, as the app uses it.
  let parser: FastifyInstance;
  beforeAll(async () => {
    parser = Fastify();
    parser.get('/q', async (request) => Object.keys(request.query as object));
    await parser.ready();
  });
  afterAll(() => parser.close());
  const parsedKeys = async (query: string): Promise<string[]> =>
    (await parser.inject({ method: 'GET', url: `/q?${query}` })).json();

  it.each(KEYS)('redacts the value of %s (read as ptoken by the parser: %s)', async (key, readAsPtoken) => {
    const query = `${key}=${OPAQUE}`;
    expect((await parsedKeys(query)).includes('ptoken'), 'the parser reads the key as expected').toBe(readAsPtoken);
    for (const url of [
      `/api/core/token/user?${query}`,
      `/api/core/token/user?a=b&${query}&c=d`,
      `http://127.0.0.1:8080/x/y?${query}`,
    ]) {
      const out = redactUrl(url);
      expect(out).not.toContain(OPAQUE);
      expect(out).not.toContain(OPAQUE.slice(3, 12));
      expect(out).toContain('[REDACTED]');
    }
  });

  it('redacts a query the router starts at `#` or `;`, and values in full up to the next `&`', () => {
    expect(redactUrl(`/api/core/token/user#ptoken=${OPAQUE}`)).toBe('/api/core/token/user#ptoken=[REDACTED]');
    expect(redactUrl(`/api/core/token/user;ptoken=${OPAQUE}`)).toBe('/api/core/token/user;ptoken=[REDACTED]');
    // The parser's value runs to the next `&`: a `#` or `;` inside it is still value.
    expect(redactUrl(`/x?ptoken=${OPAQUE}#${OPAQUE}&n=1`)).toBe('/x?ptoken=[REDACTED]&n=1');
    expect(redactUrl(`/x?ptoken=a&ptoken=${OPAQUE}`)).toBe('/x?ptoken=[REDACTED]&ptoken=[REDACTED]');
    expect(redactUrl(`/x?ptoken==${OPAQUE}`)).toBe('/x?ptoken=[REDACTED]');
  });

  it('keeps what is no credential as sent', () => {
    for (const url of [
      '/api/core/token/user',
      '/api/core/system/ping?statusCode=500&success=false',
      '/api/core/account/profile?pscope=teams,roles',
      '/srs/x.frx.pdf?app_name=demo&a=%20b',
      '/a%20b/c?d=e#f',
    ]) {
      expect(redactUrl(url)).toBe(url);
    }
  });

  it('hides credential shapes in any position and encoding', () => {
    for (const url of [
      `/x?q=${SECRET}`,
      `/x?q=api:${SECRET}`,
      `/x?q=%70ct_${SECRET.slice(4)}`,
      `/x?q=%2570ct_${SECRET.slice(4)}`,
      `/x/${SECRET}`,
      `/x%3Fptoken=api%3A${SECRET}`,
      `/x?q=${JWT}`,
      `/x?q=%65yJ${JWT.slice(3)}`,
      `/x/${JWT}/y`,
    ]) {
      const out = redactUrl(url);
      expect(out, url).not.toContain(SECRET.slice(4, 30));
      expect(out, url).not.toContain(JWT.split('.')[2]);
      expect(out, url).not.toContain(JWT.split('.')[1]);
    }
  });

  it('costs linear time on hostile input', () => {
    for (const url of [
      `/x?${'a='.repeat(4000)}`,
      `/x?${'eyJ'.repeat(2700)}`,
      `/x?${'%25'.repeat(2700)}`,
      `/x?q=%${'C1%'.repeat(2600)}`,
    ]) {
      const started = performance.now();
      redactUrl(url);
      expect(performance.now() - started).toBeLessThan(500);
    }
  });
});

describe('redactRequestUrl', () => {
  it('drops the query when the parsed query shows a token value the raw redaction left', () => {
    // A parser that read the URL differently (here: a value the raw text files under `a`).
    expect(redactRequestUrl(`/x/y?a=${OPAQUE}`, { ptoken: OPAQUE })).toBe('/x/y[REDACTED]');
    expect(redactRequestUrl(`/x/y?a=${OPAQUE}`, { PToken: [OPAQUE, 'x'] })).toBe('/x/y[REDACTED]');
    // Agreement: the usual redaction, the rest of the URL kept.
    expect(redactRequestUrl(`/x/y?ptoken=${OPAQUE}&n=1`, { ptoken: OPAQUE, n: '1' })).toBe(
      '/x/y?ptoken=[REDACTED]&n=1',
    );
    expect(redactRequestUrl(`/x/%ZZ?%70token=${OPAQUE}`, null)).toBe('/x/%ZZ?%70token=[REDACTED]');
  });
});

describe('helpers', () => {
  it('looseDecode never fails and undoes double encoding and overlongs', () => {
    expect(looseDecode('%ZZ%7')).toBe('%ZZ%7');
    expect(looseDecode('%252570')).toBe('p');
    expect(looseDecode('%C1%B0+%E0%81%B0')).toBe('p p');
    expect(looseDecode('%FF%C3')).toBe('\ufffd\ufffd');
  });
  it('isCredentialKey reads parsed keys too', () => {
    for (const key of ['ptoken', 'Ptoken', 'ptoken\u0000', '%70token', 'ｐｔｏｋｅｎ', 'access_token'])
      expect(isCredentialKey(key), key).toBe(true);
    for (const key of ['statusCode', 'pscope', 'app_name', 'body', 'tok'])
      expect(isCredentialKey(key), key).toBe(false);
  });
});

describe('logger', () => {
  async function logged(write: (log: ReturnType<typeof createLogger>) => void): Promise<string> {
    const chunks: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    const log = createLogger('trace', sink);
    write(log);
    log.flush();
    await new Promise((r) => setImmediate(r));
    return chunks.join('');
  }

  it('redacts URLs quoted by an error (message, stack, cause, custom field) without changing the error', async () => {
    const url = `/api/core/%ZZ?%70token=${OPAQUE}`;
    const err = Object.assign(
      new Error(`'${url}' is not a valid url component`, { cause: new Error(`while reading ${url}`) }),
      { details: { url } },
    );
    const text = await logged((log) => log.error({ err }, 'request failed'));
    expect(text).toContain('request failed');
    expect(text).toContain('%70token=[REDACTED]');
    expect(text).not.toContain(OPAQUE);
    expect(err.message).toContain(OPAQUE); // the error itself is left as it was
    expect(err.details.url).toBe(url);
  });

  it('redacts the req serializer url', async () => {
    const text = await logged((log) =>
      log.info(
        { req: { method: 'GET', url: `/x?ptoke%6E=${OPAQUE}`, ip: '127.0.0.1', query: { ptoken: OPAQUE } } },
        'incoming',
      ),
    );
    expect(text).toContain('ptoke%6E=[REDACTED]');
    expect(text).not.toContain(OPAQUE);
  });

  it('redactText leaves ordinary messages alone', () => {
    const message = 'connect ECONNREFUSED 127.0.0.1:5432; at Object.<anonymous> (/work/src/x.ts:1:2)';
    expect(redactText(message)).toBe(message);
  });

  // The last pass over every line: whatever looks like an API token or a JWT is redacted,
  // wherever in the line it came from, and the line stays valid JSON.
  it('never writes a token-shaped string: bindings, fields, nested values, the message', async () => {
    const text = await logged((log) => {
      log.child({ requestId: SECRET }).warn({ username: JWT }, 'authentication failed');
      log.info({ nested: { list: [`Bearer ${JWT}`, `api:${SECRET.toUpperCase()}`] } }, `typed ${SECRET}`);
      // A JSON escape right before the credential (its letter joins the run of token characters).
      log.warn({ username: `\n${JWT}`, other: `\u001b${SECRET}` }, 'escaped');
    });
    const lines = text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).not.toMatch(/pct_[A-Za-z0-9]{8}|eyJhbGci|Xk2mQ8rT/i);
      expect(line).toContain('[REDACTED]');
      expect(() => JSON.parse(line)).not.toThrow();
    }
    expect(JSON.parse(lines[0]!)).toMatchObject({ requestId: '[REDACTED]', username: '[REDACTED]' });
    expect(JSON.parse(lines[2]!).username).toBe('\n[REDACTED]');
  });

  it('escapes the controls JSON leaves raw (DEL, C1, bidi): a terminal showing the log must not act', async () => {
    const username = 'mallory\u009b2J\u202egnp.exe\u007f\u2028\u001b[2J';
    const text = await logged((log) => log.warn({ username }, 'authentication failed'));
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\u2028]/);
    expect(text.endsWith('\n')).toBe(true);
    expect(JSON.parse(text).username).toBe(username);
  });

  it('redactCredentialShapes leaves ordinary text alone, and what precedes a credential in its run', () => {
    const line = JSON.stringify({
      msg: 'keyJson eyJ pct_short monkeyJump pct_ /api/core/token/create/ci 3f0e8a9c-1b2d-4e5f-8a7b-6c5d4e3f2a1b',
      n: -1.5e10,
    });
    expect(redactCredentialShapes(line)).toBe(line);
    expect(redactCredentialShapes(`id-${SECRET} x.${JWT}`)).toBe('id-[REDACTED] x.[REDACTED]');
  });
});
