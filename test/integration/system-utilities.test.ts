// Ping (GET parameters, POST bodies), preview over HTTP, and the uuid endpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';
import { ENVELOPE_SHAPE, expectShape } from '../support/shapes.js';

let db: TestDatabase;
let inst: Instance;
let jwt: string;

beforeAll(async () => {
  db = await createTestDatabase('sqlite');
  inst = await startInstance(db);
  jwt = await inst.jwtFor(ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  await inst?.stop();
  if (db) await dropTestDatabase(db);
});

const auth = () => ({ Authorization: `Bearer ${jwt}` });
const post = (path: string, body: string, type: string | null, headers: Record<string, string> = {}) =>
  inst.request(path, { method: 'POST', body, headers: { ...(type ? { 'content-type': type } : {}), ...headers } });

describe('GET ping', () => {
  it(
    'answers OK with the ping shape, anonymous or authenticated, and an invalid credential is just ' +
      'unauthenticated',
    async () => {
      const anon = await inst.request('/api/core/system/ping');
      expect(anon.status).toBe(200);
      expectShape(anon.body, ENVELOPE_SHAPE);
      expect(anon.body.message).toBe('OK');
      expect(anon.body.data).toEqual({ items: { authenticated: false, username: '', version: '0.1.0' }, body: null });
      const me = await inst.request('/api/core/system/ping', { headers: auth() });
      expect(me.body.data.items).toEqual({ authenticated: true, username: ADMIN.username, version: '0.1.0' });
      const bad = await inst.request('/api/core/system/ping', { headers: { Authorization: 'Bearer junk.junk.junk' } });
      expect(bad.status).toBe(200);
      expect(bad.body.data.items.authenticated).toBe(false);
    },
  );

  it('statusCode sets the HTTP status (200–599), success sets the envelope flag', async () => {
    const r = await inst.request('/api/core/system/ping?statusCode=418&success=false');
    expect(r.status).toBe(418);
    expect(r.body.success).toBe(false);
    expect(r.body.data.items.authenticated).toBe(false);
    const s503 = await inst.request('/api/core/system/ping?statusCode=503');
    expect(s503.status).toBe(503);
    expect(s503.body.success).toBe(true);
    expect(s503.body.data.items).toBeDefined();
    for (const code of [204, 304]) {
      const empty = await inst.request(`/api/core/system/ping?statusCode=${code}`);
      expect(empty.status).toBe(code);
      expect(empty.text).toBe('');
    }
  });

  it.each(['abc', '700', '199', '1.5', '', '600'])('refuses statusCode=%j with 400', async (v) => {
    const r = await inst.request(`/api/core/system/ping?statusCode=${encodeURIComponent(v)}`);
    expect(r.status).toBe(400);
    expect(r.body.data.details[0].field).toBe('statusCode');
  });

  it('refuses success that is not a boolean', async () => {
    expect((await inst.request('/api/core/system/ping?success=perhaps')).status).toBe(400);
  });

  it('echoes body= JSON with its types, nested and unicode; refuses what is not JSON or out of range', async () => {
    const value = { n: 1.5, i: -7, t: true, z: null, s: 'Grüße 👋 \u202e', a: [1, 'x', { deep: [[]] }] };
    const r = await inst.request(`/api/core/system/ping?body=${encodeURIComponent(JSON.stringify(value))}`);
    expect(r.status).toBe(200);
    expect(r.body.data.body).toEqual(value);
    expect((await inst.request('/api/core/system/ping?body=42')).body.data.body).toBe(42);
    expect((await inst.request('/api/core/system/ping?body=%22text%22')).body.data.body).toBe('text');
    // Prototype-poisoning keys are refused as POST bodies are (one parser for both).
    for (const bad of [
      '{nope',
      'undefined',
      '1e400',
      '[1e999]',
      "{'a':1}",
      '{"__proto__":{"x":1}}',
      '{"constructor":{"prototype":{}}}',
    ]) {
      const res = await inst.request(`/api/core/system/ping?body=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.success).toBe(false);
    }
  });
});

describe('POST ping', () => {
  it('echoes JSON nested up to 256 levels and refuses deeper with 400 (never a 500 from echoing it)', async () => {
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    const ok = await post('/api/core/system/ping', nested(256), 'application/json');
    expect(ok.status, ok.text.slice(0, 200)).toBe(200);
    expect(JSON.stringify(ok.body.data.body)).toBe(nested(256));
    // Brackets inside strings, escaped quotes included, are not nesting.
    const inString = `[${JSON.stringify('[[[{{\\"[[' + '['.repeat(1000))}]`;
    const s = await post('/api/core/system/ping', inString, 'application/json');
    expect(s.status, s.text.slice(0, 200)).toBe(200);
    expect(s.body.data.body).toEqual(JSON.parse(inString));
    for (const depth of [257, 100_000]) {
      const r = await post('/api/core/system/ping', nested(depth), 'application/json');
      expect(r.status, `depth ${depth}`).toBe(400);
      expect(r.body.data.code).toBe('invalid_json');
      expect(r.body.message).toBe('The body is JSON nested more than 256 levels deep');
    }
    const q = await inst.request(
      `/api/core/system/ping?body=${encodeURIComponent('{"a":'.repeat(300) + '1' + '}'.repeat(300))}`,
    );
    expect(q.status).toBe(400);
    expect(q.body.message).toBe('body is JSON nested more than 256 levels deep');
  });

  it('echoes a JSON body with its types kept', async () => {
    const value = { n: 3, f: 0.25, b: false, nil: null, list: [1, 2, { x: 'y' }], text: 'π ≈ 3.14159' };
    const r = await post('/api/core/system/ping', JSON.stringify(value), 'application/json');
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('OK');
    expect(r.body.data.body).toEqual(value);
    expect(
      (await post('/api/core/system/ping', '[1,"2",true]', 'application/json; charset=utf-8')).body.data.body,
    ).toEqual([1, '2', true]);
    expect((await post('/api/core/system/ping', '"just a string"', 'application/json')).body.data.body).toBe(
      'just a string',
    );
  });

  it('turns a form body into an object of strings; a repeated key keeps its last value', async () => {
    const r = await post(
      '/api/core/system/ping',
      'a=1&b=true&c=&d=x%20y&a=2&%C3%BC=%E2%9C%93',
      'application/x-www-form-urlencoded',
    );
    expect(r.status).toBe(200);
    expect(r.body.data.body).toEqual({ a: '2', b: 'true', c: '', d: 'x y', ü: '✓' });
    const proto = await post('/api/core/system/ping', '__proto__=x&constructor=y', 'application/x-www-form-urlencoded');
    expect(proto.status).toBe(200);
    expect(proto.body.data.body).toEqual(JSON.parse('{"__proto__":"x","constructor":"y"}'));
  });

  it('answers null for an empty body, with or without a Content-Type', async () => {
    expect((await inst.request('/api/core/system/ping', { method: 'POST' })).body.data.body).toBeNull();
    expect((await post('/api/core/system/ping', '', 'text/plain')).body.data.body).toBeNull();
    expect((await post('/api/core/system/ping', '', 'application/json')).body.data.body).toBeNull();
    expect((await post('/api/core/system/ping', '', 'application/x-www-form-urlencoded')).body.data.body).toEqual({});
  });

  it('refuses other content types with 415 and unparseable bodies with 400', async () => {
    for (const type of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'image/png']) {
      const r = await post('/api/core/system/ping', 'hello', type);
      expect(r.status, type).toBe(415);
      expect(r.body.data.code).toBe('unsupported_media_type');
    }
    for (const body of ['{bad json', '{"a":1e400}', '{"__proto__":{"x":1}}', '[1,]']) {
      const r = await post('/api/core/system/ping', body, 'application/json');
      expect(r.status, body).toBe(400);
      expect(r.body.success).toBe(false);
    }
  });

  it('reports the caller and ignores an invalid credential', async () => {
    expect((await post('/api/core/system/ping', '{}', 'application/json', auth())).body.data.items.authenticated).toBe(
      true,
    );
    expect(
      (await post('/api/core/system/ping', '{}', 'application/json', { Authorization: 'Token nope' })).body.data.items
        .authenticated,
    ).toBe(false);
  });

  it('answers 413 beyond the body limit', async () => {
    const r = await post('/api/core/system/ping', JSON.stringify({ big: 'x'.repeat(1024 * 1024) }), 'application/json');
    expect(r.status).toBe(413);
    expect(r.body.data.code).toBe('payload_too_large');
  });
});

describe('preview', () => {
  it('renders markdown with tables and strikethrough, sanitised, and HTML with patype=html', async () => {
    const r = await inst.request('/api/core/system/preview', {
      method: 'POST',
      headers: auth(),
      json: { painput: '# T\n\n| a |\n|---|\n| ~~x~~ |\n\n[l](https://e.example) <script>alert(1)</script>' },
    });
    expect(r.status).toBe(200);
    expectShape(r.body.data, { html: 'string' });
    expect(r.body.data.html).toContain('<h1>T</h1>');
    expect(r.body.data.html).toContain('<table>');
    expect(r.body.data.html).toMatch(/<(s|del)>x<\/(s|del)>/);
    expect(r.body.data.html).toContain('<a href="https://e.example" rel="noopener noreferrer">l</a>');
    expect(r.body.data.html).not.toContain('script');
    const html = await inst.request('/api/core/system/preview', {
      method: 'POST',
      headers: auth(),
      json: { painput: '<b onclick="x()">bold</b> *not md*', patype: 'html' },
    });
    expect(html.body.data.html).toBe('<b>bold</b> *not md*');
  });

  it('refuses bad input clearly', async () => {
    const call = (json: unknown) => inst.request('/api/core/system/preview', { method: 'POST', headers: auth(), json });
    expect((await call({})).status).toBe(400);
    expect((await call({ painput: 42 })).status).toBe(400);
    expect((await call({ painput: null })).status).toBe(400);
    expect((await call({ painput: 'x', patype: 'latex' })).status).toBe(400);
    expect((await call({ painput: 'x'.repeat(1024 * 1024 + 10) })).status).toBe(413);
    expect((await inst.request('/api/core/system/preview', { method: 'POST', json: { painput: 'x' } })).status).toBe(
      401,
    );
  });
});

describe('uuid endpoints', () => {
  it('GET uuid answers one bare quoted UUID, with or without credentials (even invalid ones)', async () => {
    for (const headers of [{}, auth(), { Authorization: 'Token definitely-wrong' }]) {
      const r = await inst.request('/api/core/system/uuid', { headers });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/application\/json/);
      expect(r.text).toMatch(/^"[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$/);
    }
    const rfc = await inst.request('/api/core/system/uuid?format=rfc');
    expect(rfc.body).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('GET uuids?n answers a bare array of n unique UUIDs, time in the last group', async () => {
    const before = Date.now();
    const r = await inst.request('/api/core/system/uuids?n=10000');
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
    expect(r.body).toHaveLength(10000);
    expect(new Set(r.body).size).toBe(10000);
    const t = Number.parseInt(r.body[0].slice(24), 16);
    expect(t).toBeGreaterThanOrEqual(before - 5);
    expect(t).toBeLessThanOrEqual(Date.now() + 20);
    expect((await inst.request('/api/core/system/uuids?n=1')).body).toHaveLength(1);
  });

  it.each(['0', '10001', '-1', 'abc', '1.5', '', '1e3x'])('refuses n=%j with 400', async (n) => {
    const r = await inst.request(`/api/core/system/uuids?n=${encodeURIComponent(n)}`);
    expect(r.status).toBe(400);
    expect(r.body.data.details[0].field).toBe('n');
  });

  it('refuses a missing n and an unknown format', async () => {
    expect((await inst.request('/api/core/system/uuids')).status).toBe(400);
    expect((await inst.request('/api/core/system/uuid?format=guid')).status).toBe(400);
  });
});
