// Property-based fuzzing of every route the app has registered, over real HTTP.
//
// The route list comes from the running app (`printRoutes`), so a route added later is fuzzed
// without touching this file. Requests are written byte for byte on a raw socket: fetch and
// node:http refuse (or normalise) much of what a hostile client can send — `..` segments, bytes
// outside ASCII, duplicated or control-character headers, bad chunked framing, CONNECT.
//
// What every answer must satisfy (CONTRACT.md "Envelope and errors"):
//   - an answer arrives (no dropped connection, no hang), its status is below 500;
//   - every 4xx is the JSON envelope {success:false, message, requestID, executed_at, data:{code}}
//     with a snake_case code, no stack trace or SQL text, requestID = the X-Request-Id header;
//   - every 401 carries WWW-Authenticate, every 429/503 Retry-After.
// What each property adds:
//   1. bad credentials (forged JWTs and API tokens, junk Authorization/cookie/ptoken) on every
//      route: exactly 401 on the protected ones (with the precise code where the forgery is
//      known: expired → token_expired, wrong stamp → session_ended), ping says
//      `authenticated: false`, the public ones never answer 401;
//   2. junk without credentials: odd methods, paths, queries, headers, bodies → below 500;
//   3. login with odd but well-typed credentials → invalid_credentials (account_locked once a username
//      failed five times); ill-typed → 400;
//   4. junk with a valid API token: past authentication, into parsing and validation → below 500,
//      the token stays valid, and no junk token name is accepted;
//   5. bodies shaped like each route's documented JSON body (from /openapi.json), valid values
//      spiked with NUL, lone surrogates, RTL marks → below 500 (they reach the database);
//   6. bodies over the 1 MiB limit (Content-Length or chunked) → exactly 413;
//   7. malformed HTTP framing (fixed cases and random byte mutations) → a 4xx envelope;
//   and afterwards /healthz and /readyz still answer and the instance logged no error.
// FUZZ_SCALE=10 runs every property ten times as long.
// Public routes (login, ping, uuid(s), /openapi.json, /docs, /healthz, /readyz — CONTRACT.md) may
// answer 2xx to junk they are allowed to ignore; every other route must refuse it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { connect } from 'node:net';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';
import { loadSigningKey } from '../../src/auth/signing-key.js';

// ---------------------------------------------------------------------------------------------
// Raw HTTP client

interface Answer {
  status: number;
  headers: Record<string, string[]>;
  body: string;
  /**
   * Set when no complete answer arrived: 'closed', 'timeout', 'garbage', 'truncated', or
   * 'abandoned' (closed after this client gave up on an unanswered request and half-closed).
   */
  dropped?: string;
}

interface RawRequest {
  method: string;
  /** The request-target exactly as sent (latin1: one char = one byte). */
  target: string;
  /** Sent in this order, duplicates kept; values latin1 (one char = one byte). */
  headers: Array<[string, string]>;
  body?: string;
  /** Body framing: Content-Length (default) or chunked with this chunk size. */
  chunkSize?: number;
}

let port = 0;

/**
 * Writes bytes, reads the first complete answer (skipping 1xx), then closes. With
 * `giveUpAfterMs`, a request still unanswered after that long (the server waits for bytes that
 * never come, e.g. a body a mutated Content-Length promises) is abandoned: this client
 * half-closes, and Node ends such a connection without an answer, as it may.
 */
function sendBytes(
  data: Buffer,
  opts: { head?: boolean; giveUpAfterMs?: number; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let buf = Buffer.alloc(0);
    let settled = false;
    let abandoned = false;
    const finish = (a: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve(abandoned && a.dropped === 'closed' && buf.length === 0 ? { ...a, dropped: 'abandoned' } : a);
    };
    const giveUp =
      opts.giveUpAfterMs === undefined
        ? undefined
        : setTimeout(() => {
            if (buf.length > 0) return;
            abandoned = true;
            socket.end();
          }, opts.giveUpAfterMs);
    const timer = setTimeout(
      () => finish({ status: 0, headers: {}, body: buf.toString('latin1'), dropped: 'timeout' }),
      opts.timeoutMs ?? 20_000,
    );
    const parse = (atEnd: boolean): void => {
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) {
          if (atEnd) finish({ status: 0, headers: {}, body: buf.toString('latin1'), dropped: 'closed' });
          return;
        }
        const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
        const m = /^HTTP\/1\.[01] (\d{3}) /.exec(lines[0] ?? '');
        if (!m) {
          finish({ status: 0, headers: {}, body: buf.toString('latin1'), dropped: 'garbage' });
          return;
        }
        const status = Number(m[1]);
        const headers: Record<string, string[]> = {};
        for (const line of lines.slice(1)) {
          const colon = line.indexOf(':');
          (headers[line.slice(0, colon).trim().toLowerCase()] ??= []).push(line.slice(colon + 1).trim());
        }
        const rest = buf.subarray(end + 4);
        if (status < 200) {
          buf = rest;
          continue;
        }
        if (opts.head || status === 204 || status === 304) {
          finish({ status, headers, body: '' });
          return;
        }
        if (headers['transfer-encoding']?.[0]?.toLowerCase() === 'chunked') {
          const parts: Buffer[] = [];
          let pos = 0;
          for (;;) {
            const eol = rest.indexOf('\r\n', pos);
            if (eol < 0) break;
            const size = parseInt(rest.subarray(pos, eol).toString('latin1'), 16);
            if (size === 0) {
              finish({ status, headers, body: Buffer.concat(parts).toString('utf8') });
              return;
            }
            if (rest.length < eol + 2 + size + 2) break;
            parts.push(rest.subarray(eol + 2, eol + 2 + size));
            pos = eol + 2 + size + 2;
          }
          if (atEnd) finish({ status, headers, body: Buffer.concat(parts).toString('utf8'), dropped: 'truncated' });
          return;
        }
        const length = headers['content-length']?.[0];
        if (length !== undefined) {
          const n = Number(length);
          if (rest.length >= n) {
            finish({ status, headers, body: rest.subarray(0, n).toString('utf8') });
            return;
          }
          if (atEnd) finish({ status, headers, body: rest.toString('utf8'), dropped: 'truncated' });
          return;
        }
        if (atEnd) finish({ status, headers, body: rest.toString('utf8') });
        return;
      }
    };
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      parse(false);
    });
    socket.on('end', () => parse(true));
    socket.on('close', () => parse(true));
    // EPIPE/ECONNRESET while still sending a body the server has already refused: what matters
    // is whether a complete answer arrived, which `close` decides.
    socket.on('error', () => undefined);
    socket.write(data);
  });
}

function serialize(req: RawRequest): Buffer {
  const headers: Array<[string, string]> = [['Host', `127.0.0.1:${port}`], ...req.headers, ['Connection', 'close']];
  let body = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
  if (body !== undefined) {
    if (req.chunkSize) {
      headers.push(['Transfer-Encoding', 'chunked']);
      const parts: Buffer[] = [];
      for (let i = 0; i < body.length; i += req.chunkSize) {
        const chunk = body.subarray(i, i + req.chunkSize);
        parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`, 'latin1'), chunk, Buffer.from('\r\n', 'latin1'));
      }
      parts.push(Buffer.from('0\r\n\r\n', 'latin1'));
      body = Buffer.concat(parts);
    } else {
      headers.push(['Content-Length', String(body.length)]);
    }
  }
  const head = `${req.method} ${req.target} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body ?? Buffer.alloc(0)]);
}

const send = (req: RawRequest): Promise<Answer> => sendBytes(serialize(req), { head: req.method === 'HEAD' });

/** A string's UTF-8 bytes written one char per byte, for raw (latin1) targets and headers. */
const utf8Bytes = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');
/** Percent-encodes every byte except RFC 3986 unreserved characters. */
const pctEncode = (s: string): string =>
  [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9._~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');
const b64url = (s: string | Buffer): string => Buffer.from(s).toString('base64url');

// ---------------------------------------------------------------------------------------------
// Assertions

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const EXECUTED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const LEAK =
  /\n\s+at |node_modules|\.[jt]s:\d+|SQLITE_|sqlite3|syntax error at or near|DatabaseError|relation "|FST_ERR/;
/** A client's request id is kept when it is at most 64 of these and does not look like an API
 *  token or a JWT. */
const SANE_REQUEST_ID = /^(?![\s\S]*(?:[Pp][Cc][Tt]_|eyJ))[A-Za-z0-9._-]{1,64}$/;
/** FUZZ_SCALE=10 fuzzes ten times longer (the defaults keep the file well under a minute). */
const SCALE = Number(process.env.FUZZ_SCALE ?? '1') || 1;
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
/** Node's default --max-http-header-size. */
const MAX_HEADER_BYTES = 16 * 1024;

function show(req: RawRequest | string, a: Answer): string {
  const what =
    typeof req === 'string'
      ? req
      : `${req.method} ${req.target.slice(0, 300)} ${JSON.stringify(req.headers).slice(0, 600)}`;
  return (
    `${what}\n→ ${a.status}${a.dropped ? ` (${a.dropped})` : ''} ${JSON.stringify(a.headers).slice(0, 400)}` +
    `\n${a.body.slice(0, 600)}`
  );
}

interface Expect {
  /** The request as sent, for the X-Request-Id echo check; absent for raw byte fuzzing. */
  req?: RawRequest;
  head?: boolean;
}

/** The rules every answer obeys; returns the parsed envelope of a failure (null for 2xx/3xx or HEAD). */
function checkAnswer(
  req: RawRequest | string,
  a: Answer,
  opts: Expect = {},
): { code: string; body: Record<string, unknown> } | null {
  const where = show(req, a);
  expect(a.dropped, where).toBeUndefined();
  expect(a.status, where).toBeGreaterThanOrEqual(200);
  expect(a.status, where).toBeLessThan(500);
  if (a.status === 401) expect(a.headers['www-authenticate']?.[0] ?? '', where).not.toBe('');
  if (a.status === 429 || a.status === 503) expect(a.headers['retry-after']?.[0] ?? '', where).toMatch(/^\d+$/);
  if (a.status < 400) return null;
  expect(a.headers['content-type']?.[0] ?? '', where).toMatch(/^application\/json/);
  if (opts.head) return null;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(a.body) as Record<string, unknown>;
  } catch {
    throw new Error(`answer is not JSON\n${where}`);
  }
  expect(Object.keys(body).sort(), where).toEqual(['data', 'executed_at', 'message', 'requestID', 'success']);
  expect(body.success, where).toBe(false);
  expect(typeof body.message, where).toBe('string');
  expect(body.message, where).not.toMatch(LEAK);
  expect(typeof body.requestID, where).toBe('string');
  expect(body.executed_at, where).toMatch(EXECUTED_AT);
  const data = body.data as Record<string, unknown> | null;
  expect(typeof data === 'object' && data !== null, where).toBe(true);
  const code = (data as Record<string, unknown>).code;
  expect(
    typeof code === 'string' && SNAKE_CASE.test(code),
    `code ${JSON.stringify(code)} is not snake_case\n${where}`,
  ).toBe(true);
  expect(JSON.stringify(data), where).not.toMatch(LEAK);
  // The request id: echoed in the header; a sane incoming X-Request-Id is kept, an insane one replaced.
  const echoed = a.headers['x-request-id'];
  if (echoed) {
    expect(body.requestID, where).toBe(echoed[0]);
    const given = opts.req?.headers.filter(([k]) => k.toLowerCase() === 'x-request-id').map(([, v]) => v.trim()) ?? [];
    if (given.length === 1 && SANE_REQUEST_ID.test(given[0] as string)) expect(body.requestID, where).toBe(given[0]);
    else for (const g of given) expect(body.requestID, where).not.toBe(g);
  }
  return { code: code as string, body };
}

// ---------------------------------------------------------------------------------------------
// Routes

interface Route {
  method: string;
  /** Fastify form: `/api/core/token/user/:username`, `/docs/*`. */
  url: string;
}

/**
 * Every (method, url) of the app, read from printRoutes' radix tree: a route's path is the
 * concatenation of the node labels down to it (HEAD routes Fastify added itself included).
 */
function routesOf(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = (m[1] as string).length / 4;
    stack.length = depth;
    stack.push(m[2] as string);
    for (const method of m[3]?.split(', ') ?? []) routes.push({ method, url: stack.join('') });
  }
  return routes;
}

/** CONTRACT.md: endpoints without credentials; every other endpoint requires authentication. */
const PUBLIC = [
  /^\/api\/core\/account\/login$/,
  // The second step of a login: its credential is the mfa_token in the body.
  /^\/api\/core\/account\/login\/mfa$/,
  /^\/api\/core\/system\/ping$/,
  /^\/api\/core\/system\/uuids?$/,
  /^\/openapi\.json$/,
  /^\/docs(\/|$)/,
  /^\/healthz$/,
  /^\/readyz$/,
  // The report fonts, open-licensed files a browser fetches without the token.
  /^\/fonts\/[^/]+$/,
  // The page at the server's address.
  /^\/$/,
  // The admin console's page and bundles (its API calls need credentials).
  /^\/admin(\/|$)/,
  // The instance's icon, which browsers fetch without credentials.
  /^\/favicon\.(ico|svg)$/,
];
const isPublic = (r: Route) => PUBLIC.some((p) => p.test(r.url));
const isPing = (r: Route) => r.url === '/api/core/system/ping';

const MINIMUM_ROUTES: Route[] = [
  { method: 'POST', url: '/api/core/account/login' },
  { method: 'POST', url: '/api/core/account/login/mfa' },
  { method: 'GET', url: '/api/core/account/logout' },
  { method: 'GET', url: '/api/core/token/user' },
  { method: 'GET', url: '/api/core/token/browse' },
  { method: 'GET', url: '/api/core/token/user/:username' },
  { method: 'POST', url: '/api/core/token/create/:token_name' },
  { method: 'POST', url: '/api/core/token/create/:token_name/:username' },
  { method: 'POST', url: '/api/core/token/delete/:token_name/:username' },
  { method: 'GET', url: '/api/core/system/ping' },
  { method: 'GET', url: '/healthz' },
  { method: 'GET', url: '/readyz' },
];

/** The route's path with each `:param` (and a trailing `*`) replaced by the given segments. */
// find-my-way matches a parameter followed by a static suffix (`:templatename.frx.pdf`) with a
// regular expression whose `.` stops at line terminators: such a segment matches no route there
// (404 before any credential is read, and no resource could have that name).
const LINE_TERMINATOR_ESCAPES = /%0A|%0D|%E2%80%A8|%E2%80%A9/gi;

function fillPath(url: string, segments: readonly string[]): string {
  let i = 0;
  const next = () => segments[i++ % Math.max(1, segments.length)] ?? 'x';
  return url
    .split('/')
    .map((part) => {
      if (part === '*') return next();
      if (!part.startsWith(':')) return part;
      // Only the parameter's name is replaced: its static suffix stays, or no route matches.
      const name = /^:[A-Za-z0-9_]+/.exec(part)?.[0] ?? part;
      if (name === part) return next();
      return (next().replace(LINE_TERMINATOR_ESCAPES, '') || 'x') + part.slice(name.length);
    })
    .join('/');
}

// ---------------------------------------------------------------------------------------------
// Arbitraries that need no instance

const ODD_UNICODE = [
  '\u0000',
  '\uD800',
  '\uDBFF',
  '\uDC00',
  '\uDFFF',
  '\uD800\uD800',
  '\u202E',
  '\u202D',
  '\u200F',
  '\u2066',
  '\u200B',
  '\uFEFF',
  '\uFFFE',
  '\uFFFF',
  '\u0085',
  '\u2028',
  '\u00A0',
  'e\u0301',
  '\u{1D54F}',
  '\u{1F0A1}',
  '\u{10FFFF}',
  'İ',
  'ß',
  'ﬀ',
  '\u0007',
  '\t',
  '\r\n',
  '"',
  "'",
  '\\',
  '<script>',
  '%',
  '%00',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as written
  '${x}',
  '{{7*7}}',
  "' OR 1=1--",
  '../',
  '..\\',
  '\u0430dmin',
];
const oddString = fc
  .array(fc.oneof(fc.constantFrom(...ODD_UNICODE), fc.string({ unit: 'binary', maxLength: 6 })), {
    minLength: 1,
    maxLength: 10,
  })
  .map((parts) => parts.join(''));
const longString = fc
  .tuple(fc.constantFrom('a', 'é', '\u0000', '\u{1D54F}', '\uD800', '"', '\\'), fc.integer({ min: 300, max: 20_000 }))
  .map(([c, n]) => c.repeat(n));
const junkString = fc.oneof(
  { weight: 3, arbitrary: oddString },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: longString },
);
/** Printable bytes a header value may carry (VCHAR, SP, HTAB, obs-text): parsed, never a framing error. */
const headerSafe = (s: string) =>
  [...utf8Bytes(s)]
    .filter((c) => c === '\t' || (c >= ' ' && c !== '\u007f'))
    .join('')
    .trim();

const BAD_JSON = [
  '{',
  '}',
  '{"a":',
  "{'a':1}",
  '[1,]',
  '{"a":1,}',
  'NaN',
  'undefined',
  'Infinity',
  '{"a":1}}',
  '{"a" 1}',
  '\uFEFF{}',
  '"\\x"',
  '{"a":"\\ud800"}',
  '{"username":"\\u0000","password":"\\u0000"}',
  '1e999',
  '-',
  '--1',
  '0x10',
  '{"a":01}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{"a":1}\u0000',
  '['.repeat(20_000) + ']'.repeat(20_000),
  '{"a":'.repeat(5_000),
  'null',
  'true',
  '0',
  '""',
  '[]',
  '{}',
  ' ',
  '',
];
const wrongTypes = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
  fc
    .record(
      {
        username: fc.oneof(fc.jsonValue({ maxDepth: 2 }), oddString, longString),
        password: fc.oneof(fc.jsonValue({ maxDepth: 2 }), oddString, longString),
        createCookie: fc.jsonValue({ maxDepth: 1 }),
        extra: fc.jsonValue({ maxDepth: 2 }),
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
);
const body = fc.oneof(
  fc.constantFrom(...BAD_JSON),
  wrongTypes,
  junkString,
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('latin1')),
);
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/json;',
  'application/json; foo',
  'application/json;;;',
  'application/jsonp',
  'application/x-json',
  'text/json',
  'text/plain',
  'text/plain; charset=bogus',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'application/octet-stream',
  '*/*',
  ';',
  'application/',
  '/json',
  'application/json, text/plain',
  'a'.repeat(2000),
  'application/json; charset="utf-8"',
  'application/\u00e9json',
];
const contentType = fc.option(
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
    { weight: 1, arbitrary: junkString.map(headerSafe) },
  ),
  {
    nil: undefined,
  },
);

/** Segments the router matches to a parameter: percent-encoded, not too long, never `/`. */
const routableSegment = fc
  .oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }).map(pctEncode),
    oddString.map(pctEncode),
    fc.constantFrom(
      '..',
      '.',
      '...',
      '~',
      '-',
      '_',
      'api',
      'API',
      'root.admin',
      'ROOT.ADMIN',
      'fuzz.victim',
      'COM',
      'demo',
      'sys_tokens',
      'a@b+c',
      'x'.repeat(257),
      'y'.repeat(65),
    ),
  )
  .filter((s) => s.length > 0 && s.length <= 500);
/** Anything that can stand where a segment is: also bad escapes, raw bytes, slashes, huge. */
const junkSegment = fc.oneof(
  routableSegment,
  fc.constantFrom(
    '',
    '%',
    '%zz',
    '%2',
    '%00',
    '%2F',
    '%2f..%2f',
    '%2e%2e',
    '%ED%A0%80',
    '%C0%AF',
    '%FF',
    '%E2%80%AE',
    ';',
    ';a=b',
    '*',
    '%20',
    '+',
    '@',
    ':',
    '!',
    '$',
    '&',
    "'",
    '(',
    ')',
    ',',
    '=',
    '//',
    '/..',
    '/../..',
    '\\',
    '?',
    '??',
    '#',
    '#frag',
    ' ',
  ),
  oddString.map(utf8Bytes),
  fc.integer({ min: 513, max: 30_000 }).map((n) => 'a'.repeat(n)),
);
const QUERY_KEYS = [
  'ptoken',
  'PTOKEN',
  'ptoken[]',
  'ptoken[a]',
  'a',
  '__proto__',
  'constructor',
  'x[y][z]',
  'app_name',
  'n',
  'setup',
  'success',
  'body',
  '',
  '&',
  '=',
];
// `statusCode` is left out on purpose: ping answers with the status it is asked for (CONTRACT.md).
const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...QUERY_KEYS), oddString),
      fc.oneof(
        junkString,
        fc.constantFrom('', '%', '%zz', '%00', 'api:', 'api:pct_', '1', '-1', 'true', '1e309', '[]'),
      ),
      fc.constantFrom('pct', 'raw', 'bytes'),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => {
    if (pairs.length === 0) return '';
    const enc = (s: string, how: string) =>
      how === 'pct' ? pctEncode(s) : how === 'raw' ? headerSafe(s).replace(/[\s#]/g, '') : utf8Bytes(s);
    return `?${pairs.map(([k, v, how]) => `${enc(k, how)}=${enc(v, how)}`).join('&')}`;
  });

// ---------------------------------------------------------------------------------------------
// Forged credentials (need the instance's signing key and real values)

interface Secrets {
  key: Uint8Array;
  /** Claims of a real admin JWT. */
  claims: Record<string, unknown>;
  realJwt: string;
  realApiToken: string;
  revokedApiToken: string;
}

interface Forged {
  label: string;
  value: string;
  /** The code expected when the value is read as a JWT (Bearer, cookie, bare ptoken). */
  asJwt?: string;
}

function signJwt(header: Record<string, unknown>, payload: unknown, key: Uint8Array | null, hash = 'sha256'): string {
  const h = b64url(JSON.stringify(header));
  const p = b64url(typeof payload === 'string' ? payload : JSON.stringify(payload));
  return `${h}.${p}.${key ? createHmac(hash, key).update(`${h}.${p}`).digest('base64url') : ''}`;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function forgedJwts(s: Secrets): fc.Arbitrary<Forged> {
  const HS = { alg: 'HS256', typ: 'JWT' };
  const valid = () => ({ ...s.claims, iat: nowSeconds(), exp: nowSeconds() + 3600 });
  const claimNames = ['sub', 'name', 'sst', 'exp', 'iss', 'aud'] as const;
  const [header, payload, signature] = s.realJwt.split('.') as [string, string, string];
  return fc.oneof(
    fc.constantFrom('none', 'None', 'NONE', 'nOnE').chain((alg) =>
      fc.constantFrom('', 'x', signature).map((sig) => ({
        label: `alg ${alg}`,
        value: `${signJwt({ alg, typ: 'JWT' }, valid(), null)}${sig}`,
        asJwt: 'invalid_token',
      })),
    ),
    fc
      .uint8Array({ minLength: 1, maxLength: 64 })
      .map((k) => ({ label: 'HS256, another key', value: signJwt(HS, valid(), k), asJwt: 'invalid_token' })),
    fc.constantFrom('RS256', 'ES256', 'PS256', 'EdDSA', 'RS512').map((alg) => ({
      label: `${alg} header over an HS256 signature`,
      value: signJwt({ alg, typ: 'JWT' }, valid(), s.key),
      asJwt: 'invalid_token',
    })),
    fc.constantFrom(['HS384', 'sha384'], ['HS512', 'sha512']).map(([alg, hash]) => ({
      label: `${alg} (not accepted) with the real key`,
      value: signJwt({ alg, typ: 'JWT' }, valid(), s.key, hash),
      asJwt: 'invalid_token',
    })),
    fc.integer({ min: 2, max: 100_000_000 }).map((ago) => ({
      label: `expired ${ago}s ago`,
      value: signJwt(HS, { ...s.claims, iat: nowSeconds() - ago - 3600, exp: nowSeconds() - ago }, s.key),
      asJwt: 'token_expired',
    })),
    fc.integer({ min: 60, max: 100_000_000 }).map((ahead) => ({
      label: 'not valid before the future',
      value: signJwt(HS, { ...valid(), nbf: nowSeconds() + ahead }, s.key),
      asJwt: 'invalid_token',
    })),
    fc.subarray([...claimNames], { minLength: 1 }).map((drop) => {
      const claims: Record<string, unknown> = valid();
      for (const c of drop) delete claims[c];
      return { label: `missing ${drop.join(',')}`, value: signJwt(HS, claims, s.key), asJwt: 'invalid_token' };
    }),
    fc
      .record({
        claim: fc.constantFrom(...claimNames),
        value: fc.oneof(
          fc.constantFrom<unknown>(null, true, [], {}, '', 'other', ['other'], 'Platform-Core', '9999999999'),
          // A number is a valid `exp` (a far future one would make a valid token): numbers only elsewhere.
          fc.double({ noNaN: true }),
        ),
      })
      .filter(
        ({ claim, value }) =>
          !(claim === 'name' && typeof value === 'string') && !(claim === 'exp' && typeof value === 'number'),
      )
      .map(({ claim, value }) => ({
        label: `${claim} = ${JSON.stringify(value)}`,
        value: signJwt(HS, { ...valid(), [claim]: value }, s.key),
        // A well-formed token whose stamp tag is not the account's: the session has ended.
        asJwt: claim === 'sst' && typeof value === 'string' ? 'session_ended' : 'invalid_token',
      })),
    fc.oneof(fc.uuid(), oddString, fc.constant('\u0000'), longString).map((sub) => ({
      label: 'unknown subject, real key',
      value: signJwt(HS, { ...valid(), sub }, s.key),
      asJwt: 'invalid_token',
    })),
    fc
      .string({ unit: 'binary', minLength: 1, maxLength: 40 })
      .filter((sst) => sst !== s.claims.sst)
      .map((sst) => ({
        label: 'another SecurityStamp, real key',
        value: signJwt(HS, { ...valid(), sst }, s.key),
        asJwt: 'session_ended',
      })),
    fc.constantFrom<unknown>('null', '[]', '"x"', '42', 'not json', '{"sub":').map((p) => ({
      label: `payload ${String(p)}`,
      value: signJwt(HS, p, s.key),
      asJwt: 'invalid_token',
    })),
    fc
      .constantFrom(['crit', { crit: ['exp'] }], ['b64 false', { b64: false, crit: ['b64'] }])
      .map(([label, extra]) => ({
        label: `header ${String(label)}`,
        value: signJwt({ ...HS, ...(extra as object) }, valid(), s.key),
        asJwt: 'invalid_token',
      })),
    fc
      .record({
        field: fc.constantFrom('name', 'sub', 'exp', 'admin', 'roles'),
        v: fc.oneof(fc.string(), fc.integer()),
      })
      .map(({ field, v }) => {
        const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
        const tampered = {
          ...claims,
          [field]: field === 'exp' ? Number(claims.exp) + 1 + (typeof v === 'number' ? Math.abs(v) : 0) : v,
        };
        return {
          label: `tampered payload (${field})`,
          value: `${header}.${b64url(JSON.stringify(tampered))}.${signature}`,
          asJwt: 'invalid_token',
        };
      })
      .filter((f) => f.value !== s.realJwt),
    fc.integer({ min: 0, max: signature.length - 2 }).map((i) => {
      const flipped = signature[i] === 'A' ? 'B' : 'A';
      return {
        label: `signature char ${i} changed`,
        value: `${header}.${payload}.${signature.slice(0, i)}${flipped}${signature.slice(i + 1)}`,
        asJwt: 'invalid_token',
      };
    }),
    fc.constantFrom('truncated signature', 'no signature', 'extra segment', 'padded').map((how) => ({
      label: how,
      value:
        how === 'truncated signature'
          ? s.realJwt.slice(0, -5)
          : how === 'no signature'
            ? `${header}.${payload}.`
            : how === 'extra segment'
              ? `${s.realJwt}.x`
              : `${header}=.${payload}.${signature}`,
      asJwt: 'invalid_token',
    })),
    fc.integer({ min: 8200, max: 12_000 }).map((n) => ({
      label: 'valid but over 8 KiB',
      value: signJwt(HS, { ...valid(), pad: 'p'.repeat(n) }, s.key),
      asJwt: 'invalid_token',
    })),
    fc
      .array(fc.stringMatching(/^[A-Za-z0-9_-]{0,80}$/), { minLength: 3, maxLength: 3 })
      .map((parts) => ({ label: 'random segments', value: parts.join('.'), asJwt: 'invalid_token' }))
      .filter((f) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\./.test(f.value)),
  );
}

const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const tokenChecksum = (body: string) => (crc32(body) >>> 0).toString(36).padStart(6, '0').slice(-6);

function forgedApiTokens(s: Secrets): fc.Arbitrary<Forged> {
  const realBody = s.realApiToken.slice(4, 36);
  const bodyArb = fc.array(fc.constantFrom(...TOKEN_ALPHABET), { minLength: 32, maxLength: 32 }).map((a) => a.join(''));
  return fc
    .oneof(
      fc
        .tuple(bodyArb, fc.stringMatching(/^[0-9a-z]{6}$/))
        .filter(([b, c]) => tokenChecksum(b) !== c)
        .map(([b, c]) => ({ label: 'right prefix, wrong checksum', value: `pct_${b}${c}` })),
      bodyArb
        .filter((b) => b !== realBody)
        .map((b) => ({ label: 'right shape, unknown token', value: `pct_${b}${tokenChecksum(b)}` })),
      fc.constant({ label: 'revoked token', value: s.revokedApiToken }),
      fc
        .tuple(fc.integer({ min: 4, max: s.realApiToken.length - 1 }), fc.constantFrom(...TOKEN_ALPHABET))
        .filter(([i, c]) => s.realApiToken[i] !== c)
        .map(([i, c]) => ({
          label: `real token, char ${i} changed`,
          value: `${s.realApiToken.slice(0, i)}${c}${s.realApiToken.slice(i + 1)}`,
        })),
      fc
        .constantFrom('PCT_', 'pct-', 'pct', 'pat_', 'ghp_', 'pct_pct_', '')
        .map((p) => ({ label: `prefix ${JSON.stringify(p)}`, value: `${p}${s.realApiToken.slice(4)}` })),
      fc.constantFrom('shortened', 'lengthened', 'upper-cased', 'reversed').map((how) => ({
        label: `real token ${how}`,
        value:
          how === 'shortened'
            ? s.realApiToken.slice(0, -1)
            : how === 'lengthened'
              ? `${s.realApiToken}A`
              : how === 'upper-cased'
                ? s.realApiToken.toUpperCase()
                : [...s.realApiToken].reverse().join(''),
      })),
    )
    .map((f) => ({ ...f, asJwt: 'invalid_token' }));
}

interface BadCredential {
  label: string;
  headers: Array<[string, string]>;
  query: string;
  /** The 401 codes allowed. */
  codes: string[];
}

const ALL_401_CODES = ['authentication_required', 'invalid_token', 'token_expired', 'session_ended'];

function badCredentials(s: Secrets): fc.Arbitrary<BadCredential> {
  const forged = fc.oneof(forgedJwts(s), forgedApiTokens(s));
  const asJwtCode = (f: Forged) => [f.asJwt ?? 'invalid_token'];
  /** One forged value in one of the places a credential can be. */
  const presented: fc.Arbitrary<BadCredential> = fc
    .tuple(
      forged,
      fc.constantFrom('bearer', 'Bearer2sp', 'token', 'basic', 'BASIC-API', 'cookie', 'query', 'query-api'),
    )
    .map(([f, where]) => {
      const only = (headers: Array<[string, string]>, query: string, codes: string[]): BadCredential => ({
        label: `${f.label} via ${where}`,
        headers,
        query,
        codes,
      });
      switch (where) {
        case 'bearer':
          return only([['Authorization', `Bearer ${f.value}`]], '', asJwtCode(f));
        case 'Bearer2sp':
          return only([['Authorization', `  bEaReR   ${f.value}  `]], '', asJwtCode(f));
        case 'token':
          return only([['Authorization', `Token ${f.value}`]], '', ['invalid_token']);
        case 'basic':
          return only([['Authorization', `Basic ${b64(`api:${f.value}`)}`]], '', ['invalid_token']);
        case 'BASIC-API':
          return only([['Authorization', `BASIC ${b64(`API:${f.value}`)}`]], '', ['invalid_token']);
        case 'cookie':
          return only([['Cookie', `ptoken=${f.value}`]], '', asJwtCode(f));
        case 'query':
          return only([], `?ptoken=${pctEncode(f.value)}`, asJwtCode(f));
        default:
          return only([], `?ptoken=api:${pctEncode(f.value)}`, ['invalid_token']);
      }
    });
  const asciiJunk = junkString.map(headerSafe);
  const authorizationJunk: fc.Arbitrary<string> = fc.oneof(
    fc
      .tuple(
        fc.constantFrom(
          'Digest',
          'Negotiate',
          'NTLM',
          'HOBA',
          'Mutual',
          'AWS4-HMAC-SHA256',
          'OAuth',
          'Bearer2',
          'Tokens',
          'Basic64',
          'JWT',
          'ApiKey',
          'X',
          '\u00e9',
        ),
        asciiJunk,
      )
      .map(([scheme, rest]) => `${scheme} ${rest || 'x'}`),
    fc.constantFrom(
      'Bearer',
      'Basic',
      'Token',
      'Bearer ',
      'Basic    ',
      'Token\t',
      'api',
      'pct_',
      'null',
      'undefined',
      '=',
      ',',
    ),
    asciiJunk.map((j) => `Bearer ${j}`),
    asciiJunk.map((j) => `Token ${j}`),
    fc
      .oneof(asciiJunk, fc.constantFrom('!!!!', '====', 'YWJj=', 'YQ', 'Y=Q=', 'YW Jj', '-_-_', '\u00ff\u00fe'))
      .map((j) => `Basic ${j || '*'}`),
    fc
      .tuple(
        fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('admin', 'root.admin', 'apii', 'ap', ' api', '')),
        fc.string({ maxLength: 60 }),
      )
      .filter(([user]) => user.toLowerCase() !== 'api')
      .map(([user, pass]) => `Basic ${b64(`${user}:${pass}`)}`),
    fc
      .oneof(
        fc.constant('api'),
        fc.constant('api:'),
        fc.constant(':api'),
        fc.string({ maxLength: 80 }).map((j) => `api:${j}`),
      )
      .map((pair) => `Basic ${b64(pair)}`),
    fc.uint8Array({ minLength: 1, maxLength: 120 }).map((bytes) => `Basic ${b64(Buffer.from(bytes))}`),
    fc
      .tuple(
        fc.constantFrom('Bearer ', 'Token ', 'Basic ', ''),
        fc.constantFrom('a', 'A', '.', '='),
        fc.integer({ min: 8193, max: 12_000 }),
      )
      .map(([p, c, n]) => `${p}${c.repeat(n)}`),
    fc
      .array(fc.stringMatching(/^[A-Za-z0-9_-]{1,30}$/), { minLength: 3, maxLength: 3 })
      .map((parts) => `Bearer ${parts.join('.')}`),
  );
  const cookieJunk: fc.Arbitrary<string> = fc.oneof(
    asciiJunk.map((j) => `ptoken=${j}`),
    fc.constantFrom(
      'ptoken',
      'ptoken=',
      'ptoken=""',
      'ptoken="abc"',
      'ptoken=%ZZ%',
      'ptoken=%00',
      'ptoken=a; ptoken=b',
      'PTOKEN=x',
      'ptoken =x',
      ';;;',
      '=',
      'ptoken=api:x',
      'a=b; ptoken=\u00e9',
    ),
    fc.integer({ min: 8193, max: 12_000 }).map((n) => `ptoken=${'c'.repeat(n)}`),
  );
  const queryJunk: fc.Arbitrary<string> = fc.oneof(
    fc
      .oneof(junkString, fc.constantFrom('', '%00', 'api:', 'api:x', 'API:pct_x', 'pct_', 'null'))
      .map((j) => `?ptoken=${pctEncode(j)}`),
    fc.constantFrom(
      '?ptoken=a&ptoken=b',
      '?ptoken[]=x',
      '?ptoken[a]=x',
      '?ptoken',
      '?ptoken=&ptoken=',
      '?ptoken=%zz',
      '?ptoken=%',
      '?PTOKEN=x',
      '?ptoken=api%3A',
    ),
  );
  const single: fc.Arbitrary<BadCredential> = fc.oneof(
    { weight: 6, arbitrary: presented },
    {
      weight: 3,
      arbitrary: authorizationJunk.map((v) => ({
        label: 'Authorization junk',
        headers: [['Authorization', v]] as Array<[string, string]>,
        query: '',
        codes: ALL_401_CODES,
      })),
    },
    {
      weight: 1,
      arbitrary: cookieJunk.map((v) => ({
        label: 'cookie junk',
        headers: [['Cookie', v]] as Array<[string, string]>,
        query: '',
        codes: ALL_401_CODES,
      })),
    },
    {
      weight: 1,
      arbitrary: queryJunk.map((q) => ({
        label: 'ptoken junk',
        headers: [] as Array<[string, string]>,
        query: q,
        codes: ALL_401_CODES,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constant<BadCredential>({
        label: 'no credential',
        headers: [],
        query: '',
        codes: ['authentication_required'],
      }),
    },
  );
  // Several bad credentials at once, duplicated headers included: still 401.
  const several = fc.array(single, { minLength: 2, maxLength: 3 }).map((list) => ({
    label: list.map((c) => c.label).join(' + '),
    headers: list.flatMap((c) => c.headers),
    query: list
      .map((c) => c.query)
      .filter(Boolean)
      .join('&')
      .replace(/&\?/g, '&'),
    codes: ALL_401_CODES,
  }));
  return fc.oneof({ weight: 5, arbitrary: single }, { weight: 1, arbitrary: several });
}

// Bodies shaped like a route's documented JSON body: the right field names with odd values
// (NUL, lone surrogates, RTL, huge), values that match the declared pattern, and wrong types.
// This reaches past validation into the services and the database, which junk alone rarely does.
type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  pattern?: string;
  format?: string;
  nullable?: boolean;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
};

/** A value the schema accepts (as far as these keywords go). */
function validFor(schema: JsonSchema, depth: number, key = ''): fc.Arbitrary<unknown> {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) return fc.oneof(...alternatives.map((s) => validFor(s, depth + 1, key)));
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      const min = schema.minLength ?? 1;
      const max = Math.max(min, Math.min(schema.maxLength ?? 24, 24));
      if (schema.format === 'uuid') return fc.uuid();
      const base = schema.pattern
        ? fc.stringMatching(new RegExp(schema.pattern))
        : fc.string({ minLength: min, maxLength: max });
      const valid = base.filter((v) => v.length >= min && v.length <= (schema.maxLength ?? Infinity));
      // A username field mostly names an account that exists, so the service goes on to act.
      return key === 'username'
        ? fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom(ADMIN.username, 'fuzz.victim') },
            { weight: 1, arbitrary: valid },
          )
        : valid;
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(validFor(schema.items ?? {}, depth + 1), { maxLength: 3 });
    case 'object': {
      if (depth > 3) return fc.constant({});
      const props = Object.entries(schema.properties ?? {});
      const required = new Set(schema.required ?? []);
      return fc.record(
        Object.fromEntries(props.map(([k, s]) => [k, validFor(s, depth + 1, k)])) as Record<
          string,
          fc.Arbitrary<unknown>
        >,
        {
          requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)),
        },
      );
    }
    default:
      return fc.string({ maxLength: 8 });
  }
}

/**
 * A valid body whose free-text strings (no pattern, format or enum: what validation lets through
 * whatever they hold) all carry a character no text column should need. With none, one string
 * or a free-form object gets it.
 */
function spikedBodyFor(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  const freeText = (k: string) => {
    const p = props[k];
    const alts = p?.anyOf ?? p?.oneOf ?? (p ? [p] : []);
    return alts.some(
      (a) =>
        (Array.isArray(a.type) ? a.type.includes('string') : a.type === 'string') && !a.pattern && !a.format && !a.enum,
    );
  };
  const spikes = fc.constantFrom('\u0000', 'a\u0000', '\u0000\u202E\uD800', '\u0000\u0000', '\uD800', '\u202E');
  return fc
    .tuple(validFor(schema, 0) as fc.Arbitrary<Record<string, unknown>>, fc.nat(), spikes)
    .map(([body, at, spike]) => {
      const out: Record<string, unknown> = { ...body };
      const put = (v: string) => `${v.slice(0, at % (v.length + 1))}${spike}${v.slice(at % (v.length + 1))}`;
      const free = Object.keys(out).filter((k) => typeof out[k] === 'string' && freeText(k));
      const objects = Object.keys(out).filter(
        (k) => typeof out[k] === 'object' && out[k] !== null && !Array.isArray(out[k]),
      );
      const strings = Object.keys(out).filter((k) => typeof out[k] === 'string');
      if (free.length > 0) for (const k of free) out[k] = put(out[k] as string);
      else if (objects.length > 0)
        for (const k of objects) out[k] = { ...(out[k] as object), [`k${spike}`]: `v${spike}` };
      else if (strings.length > 0)
        out[strings[at % strings.length] as string] = put(out[strings[at % strings.length] as string] as string);
      return out;
    });
}

function valueFor(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const wrong = fc.jsonValue({ maxDepth: 2 });
  const alternatives = schema.anyOf ?? schema.oneOf;
  let right: fc.Arbitrary<unknown>;
  if (alternatives && alternatives.length > 0) right = fc.oneof(...alternatives.map((s) => valueFor(s, depth + 1)));
  else if (schema.enum && schema.enum.length > 0) right = fc.constantFrom(...schema.enum);
  else {
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    switch (type) {
      case 'string': {
        // Values the declared rules accept, the same with a NUL (or another odd character) put in,
        // and odd strings of every kind.
        const valid = schema.pattern
          ? fc.stringMatching(new RegExp(schema.pattern))
          : schema.format === 'uuid'
            ? fc.uuid()
            : fc.string({ minLength: 1, maxLength: 12 });
        const spiked = fc
          .tuple(valid, fc.nat(), fc.constantFrom('\u0000', '\uD800', '\u202E', '\uFEFF', '\u0000\u0000'))
          .map(([v, at, c]) => `${v.slice(0, at % (v.length + 1))}${c}${v.slice(at % (v.length + 1))}`);
        right = fc.oneof(
          { weight: 3, arbitrary: valid },
          { weight: 3, arbitrary: spiked },
          { weight: 2, arbitrary: oddString },
          { weight: 1, arbitrary: longString },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              '',
              '\u0000',
              'root.admin',
              'fuzz.victim',
              'COM',
              'EUR',
              '#abc',
              'internal',
              'external',
            ),
          },
        );
        break;
      }
      case 'integer':
        right = fc.oneof(fc.integer(), fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, -(2 ** 53), 1e21));
        break;
      case 'number':
        right = fc.oneof(
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.constantFrom(0, -0, 1e308, -1e308, 5e-324),
        );
        break;
      case 'boolean':
        right = fc.boolean();
        break;
      case 'array':
        right = depth > 3 ? fc.constant([]) : fc.array(valueFor(schema.items ?? {}, depth + 1), { maxLength: 4 });
        break;
      case 'object':
        right = depth > 3 ? fc.constant({}) : objectFor(schema, depth + 1);
        break;
      default:
        right = fc.oneof(oddString, fc.jsonValue({ maxDepth: 2 }));
    }
  }
  return fc.oneof(
    { weight: 6, arbitrary: right },
    { weight: 1, arbitrary: wrong },
    ...(schema.nullable ? [{ weight: 1, arbitrary: fc.constant(null) }] : []),
  );
}

function objectFor(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(schema.properties ?? {});
  const record = fc.record(
    Object.fromEntries(props.map(([k, s]) => [k, valueFor(s, depth)])) as Record<string, fc.Arbitrary<unknown>>,
    { requiredKeys: [] },
  );
  return fc
    .tuple(
      record,
      fc.option(
        fc.tuple(
          fc.oneof(oddString, fc.constantFrom('__proto__', 'constructor', 'username')),
          fc.jsonValue({ maxDepth: 2 }),
        ),
        { freq: 5 },
      ),
    )
    .map(([o, extra]) => {
      if (!extra) return o;
      // Set as an own property (even `__proto__`), as JSON.parse on the server would.
      return { ...o, ...JSON.parse(`{${JSON.stringify(extra[0])}:${JSON.stringify(extra[1]) ?? 'null'}}`) };
    });
}

/** OpenAPI request body schemas by Fastify route key (`POST /api/core/account/create`). */
function bodySchemas(doc: {
  paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
}): Map<string, JsonSchema> {
  const map = new Map<string, JsonSchema>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      const schema = op.requestBody?.content?.['application/json']?.schema;
      if (schema) map.set(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`, schema);
    }
  }
  return map;
}

// Headers that must not change the outcome of a request (they are ignored or only echoed).
const harmlessHeaders = fc.array(
  fc.oneof(
    fc
      .oneof(junkString.map(headerSafe), fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/))
      .map((v): [string, string] => ['X-Request-Id', v || 'x']),
    fc.constantFrom<[string, string]>(
      ['Accept', '*/*'],
      ['Accept', 'text/html'],
      ['Accept', 'application/xml;q=0.1, */*;q=0'],
      ['Accept-Encoding', 'gzip, br, zstd'],
      ['Accept-Language', 'xx'],
      ['X-Forwarded-For', '1.2.3.4, ::1, junk'],
      ['Forwarded', 'for=evil;proto=https'],
      ['X-Forwarded-Proto', 'https'],
      ['Origin', 'null'],
      ['Referer', 'http://[::1'],
      ['Sec-Fetch-Site', 'cross-site'],
      ['User-Agent', '\u00ff\u00fe'],
      ['X-Http-Method-Override', 'DELETE'],
    ),
  ),
  { maxLength: 3 },
);

// ---------------------------------------------------------------------------------------------

describe.each(testDatabaseKinds())('fuzzing every route on %s', (kind) => {
  let db: TestDatabase;
  let instance: Instance;
  let routes: Route[];
  let secrets: Secrets;
  let adminJwt: string;
  let schemas: Map<string, JsonSchema>;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    instance = await startInstance(db);
    port = Number(new URL(instance.url).port);
    routes = routesOf(instance.app);

    adminJwt = await instance.jwtFor(ADMIN.username, ADMIN.password);
    const auth = { authorization: `Bearer ${adminJwt}` };
    const created = await instance.request(`/api/core/token/create/fuzz-key/${ADMIN.username}`, {
      method: 'POST',
      headers: auth,
    });
    const revoked = await instance.request(`/api/core/token/create/fuzz-revoked/${ADMIN.username}`, {
      method: 'POST',
      headers: auth,
    });
    expect(created.status, created.text).toBe(201);
    expect(revoked.status, revoked.text).toBe(201);
    const gone = await instance.request(`/api/core/token/delete/fuzz-revoked/${ADMIN.username}`, {
      method: 'POST',
      headers: auth,
    });
    expect(gone.status, gone.text).toBe(200);
    // A second account, so administrative routes fuzzed with its name act on a real target.
    if (instance.app.hasRoute({ method: 'POST', url: '/api/core/account/create' })) {
      const victim = await instance.request('/api/core/account/create', {
        method: 'POST',
        headers: auth,
        json: { username: 'fuzz.victim', password: 'victim password 1' },
      });
      expect(victim.status, victim.text).toBe(201);
    }
    schemas = bodySchemas((await instance.request('/openapi.json')).body);
    // The fuzzed bodies log in as the administrator with odd passwords and send it odd current
    // passwords: five of those lock an account (as they should), which would end the API token the
    // properties call with. The administrator is exempt from lockout (an account setting that
    // lockout.test.ts covers), so the token stays valid however the draws fall.
    await instance.services.database.db
      .updateTable('users')
      .set({ lockout_enabled: 0 })
      .where('normalized_username', '=', ADMIN.username.toUpperCase())
      .execute();

    // The key is read from the instance's own database: forgeries signed with it fail only
    // because of what was forged (expiry, claims, algorithm), not because of the key.
    secrets = {
      key: (await loadSigningKey(instance.services.database.db, { file: null, value: null })).key,
      claims: JSON.parse(Buffer.from(adminJwt.split('.')[1] as string, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >,
      realJwt: adminJwt,
      realApiToken: created.body.data.item.value as string,
      revokedApiToken: revoked.body.data.item.value as string,
    };
  });

  afterAll(async () => {
    await instance?.stop();
    if (db) await dropTestDatabase(db);
  });

  it('finds every route of the app, the contract minimum included', () => {
    for (const r of routes)
      expect(instance.app.hasRoute({ method: r.method as 'GET', url: r.url }), `${r.method} ${r.url}`).toBe(true);
    const listed = routes.map((r) => `${r.method} ${r.url}`);
    for (const r of MINIMUM_ROUTES) expect(listed).toContain(`${r.method} ${r.url}`);
  });

  it('the real credentials the forgeries start from are valid', async () => {
    // Without this the 401 property could pass because nothing works at all.
    for (const headers of [
      { authorization: `Bearer ${secrets.realJwt}` },
      { authorization: `Token ${secrets.realApiToken}` },
    ]) {
      const r = await instance.request('/api/core/token/user', { headers });
      expect(r.status, r.text).toBe(200);
    }
    const forged = signJwt(
      { alg: 'HS256', typ: 'JWT' },
      { ...secrets.claims, jti: randomUUID(), exp: nowSeconds() + 600 },
      secrets.key,
    );
    const r = await instance.request('/api/core/token/user', { headers: { authorization: `Bearer ${forged}` } });
    expect(r.status, 'a JWT signed with the key read from the database must be accepted').toBe(200);
  });

  it('refuses bad credentials with 401 on every protected route (ping: unauthenticated, public: ignored)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.array(routableSegment, { minLength: 2, maxLength: 2 }),
        badCredentials(secrets),
        harmlessHeaders,
        fc.option(fc.tuple(body, contentType), { nil: undefined }),
        fc.boolean(),
        async (route, segments, cred, extra, payload, asHead) => {
          const method = route.method === 'GET' && asHead ? 'HEAD' : route.method;
          const withBody = payload !== undefined && method === 'POST';
          const req: RawRequest = {
            method,
            target: fillPath(route.url, segments) + cred.query,
            headers: [
              ...cred.headers,
              ...extra,
              ...(withBody && payload[1] !== undefined ? [['Content-Type', payload[1]] as [string, string]] : []),
            ],
            ...(withBody ? { body: payload[0] } : {}),
          };
          const bytes = serialize(req);
          const headBytes = bytes.indexOf('\r\n\r\n');
          const a = await sendBytes(bytes, { head: method === 'HEAD' });
          const failure = checkAnswer(req, a, { req, head: method === 'HEAD' });
          const where = `${cred.label}\n${show(req, a)}`;
          // Node refuses a request head over its 16 KiB limit before any route sees it (it counts
          // a little differently from a plain byte count, hence the margins).
          if (a.status === 431) {
            expect(headBytes, where).toBeGreaterThan(MAX_HEADER_BYTES - 1024);
            return;
          }
          expect(headBytes, `a head of ${headBytes} bytes must be refused\n${where}`).toBeLessThan(
            2 * MAX_HEADER_BYTES,
          );
          if (isPing(route)) {
            // Bad credentials are reported, never refused; a POST's junk body may still be (4xx).
            if (method !== 'POST') expect(a.status, where).toBe(200);
            expect(a.status, where).not.toBe(401);
            if (a.status === 200 && method !== 'HEAD')
              expect(JSON.parse(a.body).data.items.authenticated, where).toBe(false);
          } else if (isPublic(route)) {
            if (route.url === '/api/core/account/login') {
              expect(a.status, where).toBeGreaterThanOrEqual(400);
              // The body's username and password may be refused (a junk body can be a well-formed
              // login); the presented credential never is: it is ignored.
              if (a.status === 401) expect(['invalid_credentials', 'account_locked'], where).toContain(failure?.code);
            } else if (route.url === '/api/core/account/login/mfa') {
              // No junk body names a live mfa_token: a 4xx, the presented credential ignored.
              expect(a.status, where).toBeGreaterThanOrEqual(400);
              if (a.status === 401) expect(failure?.code, where).toBe('invalid_mfa_token');
            } else {
              expect(a.status, where).not.toBe(401);
            }
          } else {
            expect(a.status, where).toBe(401);
            if (failure) expect(cred.codes, where).toContain(failure.code);
            expect(JSON.stringify(a.headers), 'no cookie is set for a refused credential').not.toMatch(/set-cookie/);
          }
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it('answers junk without credentials below 500, failures in the envelope', async () => {
    const METHODS = [
      'GET',
      'HEAD',
      'POST',
      'PUT',
      'DELETE',
      'PATCH',
      'OPTIONS',
      'TRACE',
      'PROPFIND',
      'SEARCH',
      'QUERY',
      'BREW',
      'get',
      'G\u00e9T',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.option(fc.constantFrom(...METHODS), { nil: undefined, freq: 2 }),
        fc.array(junkSegment, { minLength: 2, maxLength: 2 }),
        fc.constantFrom('', '', '', '/', '//', '/x', '/..', '?', '#', '%', '/%2e%2e/%2e%2e/etc/passwd', '/./', ';'),
        queryString,
        fc.array(
          fc.oneof(
            fc.tuple(
              fc.constantFrom(
                'Content-Type',
                'Authorization',
                'Cookie',
                'X-Request-Id',
                'Accept',
                'Accept-Version',
                'Content-Encoding',
                'Host',
                'Expect',
                'Range',
                'If-None-Match',
                'Upgrade',
                'Transfer-Encoding',
                'X-\u00e9',
                'Bad Name',
                '',
              ),
              junkString.map(utf8Bytes),
            ),
            fc.constantFrom<[string, string]>(
              ['Content-Type', 'application/json'],
              ['Content-Type', 'text/plain'],
              ['Content-Encoding', 'gzip'],
              ['Content-Encoding', 'br'],
              ['Accept-Version', '1.x'],
              ['Range', 'bytes=0-1'],
              ['If-None-Match', '*'],
              ['Upgrade', 'websocket'],
              ['Expect', '100-continue'],
              ['Host', ''],
              ['Host', 'evil.example'],
              ['Content-Length', '-1'],
              ['Content-Length', 'abc'],
            ),
          ),
          { maxLength: 4 },
        ),
        fc.option(body, { nil: undefined }),
        async (route, maybeMethod, segments, suffix, query, headers, payload) => {
          const method = maybeMethod ?? route.method;
          const req: RawRequest = {
            method,
            target: fillPath(route.url, segments) + suffix + query,
            headers,
            ...(payload !== undefined ? { body: payload } : {}),
          };
          const a = await send(req);
          checkAnswer(req, a, { req, head: method === 'HEAD' });
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it(
    'login: odd but well-typed credentials are invalid_credentials (account_locked after five), ill-typed ones ' +
      '400',
    async () => {
      // Login is the one route that takes input from anyone into the database: its own property.
      const credentialText = fc.oneof(
        oddString,
        fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }),
        fc.constantFrom(
          '\u0000',
          'root.admin\u0000',
          'api',
          'API',
          'api\u0000',
          ' root.admin',
          'root.admin ',
          'ROOT.ADMIN\uFEFF',
          'r\u0130',
        ),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc
              .record(
                { username: credentialText, password: credentialText, createCookie: fc.boolean() },
                { requiredKeys: ['username', 'password'] },
              )
              .map((b) => ({ b, wellTyped: true })),
            fc
              .record(
                {
                  username: fc.jsonValue({ maxDepth: 2 }),
                  password: fc.jsonValue({ maxDepth: 2 }),
                  createCookie: fc.jsonValue({ maxDepth: 1 }),
                },
                { requiredKeys: [] },
              )
              .map((b) => ({ b, wellTyped: false })),
          ),
          fc.constantFrom('json', 'utf8-bytes'),
          async ({ b, wellTyped }, encoding) => {
            const text = JSON.stringify(b);
            // 'utf8-bytes': non-ASCII sent as raw UTF-8 instead of \u escapes (lone surrogates become U+FFFD).
            const sent =
              encoding === 'json'
                ? text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
                : text;
            const req: RawRequest = {
              method: 'POST',
              target: '/api/core/account/login',
              headers: [['Content-Type', 'application/json']],
              body: sent,
            };
            const a = await send(req);
            const failure = checkAnswer(req, a, { req });
            const where = show(req, a);
            const stringsInRange = (v: unknown, max: number) =>
              typeof v === 'string' && v.length >= 1 && v.length <= max;
            const valid = wellTyped && stringsInRange(b.username, 256) && stringsInRange(b.password, 4096);
            if (a.status === 429) return; // the per-address login limit: allowed, and enveloped (checked above)
            if (valid) {
              expect(a.status, where).toBe(401);
              // Failures are counted per username, known or not (other properties of this file
              // send logins too): after five a username is locked out for a while
              // (test/integration/lockout.test.ts checks the counting itself).
              expect(['invalid_credentials', 'account_locked'], where).toContain(failure?.code);
            } else if (
              !wellTyped &&
              !(
                stringsInRange(b.username, 256) &&
                stringsInRange(b.password, 4096) &&
                (b.createCookie === undefined || typeof b.createCookie === 'boolean')
              )
            ) {
              expect(a.status, where).toBe(400);
            }
          },
        ),
        { numRuns: runs(80) },
      );
    },
  );

  it('answers junk from an authenticated caller below 500 (and no junk token name is accepted)', async () => {
    const tokenNameInvalid = fc.oneof(
      fc
        .string({ unit: 'binary', minLength: 1, maxLength: 40 })
        .filter((s) => !/^[A-Za-z0-9._-]{1,64}$/.test(s))
        .map(pctEncode),
      fc.integer({ min: 65, max: 500 }).map((n) => 't'.repeat(n)),
      fc.constantFrom('%20', 'a%2Fb', 'a%00', '%E2%80%AE', 'a+b', 'a@b', '%F0%9D%95%8F', 'na%CC%81me'),
    );
    const bodyFor = (route: Route): fc.Arbitrary<[string, string | undefined] | undefined> => {
      const schema = schemas.get(`${route.method} ${route.url}`);
      const junk = fc.tuple(body, contentType);
      const shaped = schema
        ? [objectFor(schema, 0).map((o): [string, string | undefined] => [JSON.stringify(o), 'application/json'])]
        : [];
      return fc.option(fc.oneof(junk, ...shaped, ...shaped), { nil: undefined, freq: 4 });
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes).chain((route) => fc.tuple(fc.constant(route), bodyFor(route))),
        fc.array(routableSegment, { minLength: 2, maxLength: 2 }),
        tokenNameInvalid,
        fc.constantFrom('bearer', 'token', 'basic', 'query', 'cookie'),
        queryString.map((q) => q.replace(/ptoken/gi, 'p')),
        harmlessHeaders,
        async ([route, payload], segments, badName, how, query, extra) => {
          // The admin's API token: logout and password changes (which end JWTs) leave it valid.
          const t = secrets.realApiToken;
          const cred: Array<[string, string]> =
            how === 'bearer'
              ? [['Authorization', `Bearer ${t}`]]
              : how === 'token'
                ? [['Authorization', `Token ${t}`]]
                : how === 'basic'
                  ? [['Authorization', `Basic ${b64(`api:${t}`)}`]]
                  : how === 'cookie'
                    ? [['Cookie', `ptoken=${t}`]]
                    : [];
          const credQuery = how === 'query' ? `ptoken=api:${t}` : '';
          const isCreate = route.url.startsWith('/api/core/token/create/');
          const path = fillPath(route.url, isCreate ? [badName, segments[1] as string] : segments);
          // A raw CR or LF in the target ends the request line there: the server then sees a request
          // without the credential headers (rightly 401), which is not what this property is about.
          const q = [query.replace(/^\?/, '').replace(/[\r\n]/g, ''), credQuery].filter(Boolean).join('&');
          const withBody = payload !== undefined && route.method === 'POST';
          const req: RawRequest = {
            method: route.method,
            target: `${path}${q ? `?${q}` : ''}`,
            headers: [
              ...cred,
              ...extra,
              ...(withBody && payload[1] !== undefined ? [['Content-Type', payload[1]] as [string, string]] : []),
            ],
            ...(withBody ? { body: payload[0] } : {}),
          };
          const a = await send(req);
          checkAnswer(req, a, { req, head: route.method === 'HEAD' });
          // Junk may legitimately succeed elsewhere (an empty profile update), never as a token name.
          if (isCreate) expect(a.status, show(req, a)).toBeGreaterThanOrEqual(400);
          if (!isPublic(route)) expect(a.status, `the API token must stay valid\n${show(req, a)}`).not.toBe(401);
        },
      ),
      { numRuns: runs(250) },
    );
  });

  it('documented JSON bodies with odd values reach the services without a 5xx', async () => {
    // Every route with a documented JSON body, called by the administrator (API token) with bodies
    // of the documented shape: valid values, the same with NUL/surrogates/RTL put in, odd strings,
    // wrong types. Whatever the services make of them, the answer is below 500.
    const withBodies = routes.filter((r) => schemas.has(`${r.method} ${r.url}`));
    expect(withBodies.map((r) => r.url)).toContain('/api/core/account/login');
    const target = fc.oneof(
      routableSegment,
      fc.constantFrom('root.admin', 'fuzz.victim', 'COM', 'demo', 'sys_tokens', 'fuzz-name'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...withBodies).chain((route) => {
          const schema = schemas.get(`${route.method} ${route.url}`) as JsonSchema;
          return fc.tuple(fc.constant(route), fc.oneof(spikedBodyFor(schema), objectFor(schema, 0)));
        }),
        fc.array(target, { minLength: 3, maxLength: 3 }),
        async ([route, payload], segments) => {
          const req: RawRequest = {
            method: route.method,
            target: fillPath(route.url, segments),
            headers: [
              ['Authorization', `Token ${secrets.realApiToken}`],
              ['Content-Type', 'application/json'],
            ],
            body: JSON.stringify(payload),
          };
          const a = await send(req);
          checkAnswer(req, a, { req });
          if (!isPublic(route)) expect(a.status, `the API token must stay valid\n${show(req, a)}`).not.toBe(401);
        },
      ),
      { numRuns: runs(120) },
    );
  });

  it('refuses bodies over the 1 MiB limit with 413', async () => {
    const limit = instance.config.settings.bodyLimitBytes;
    expect(limit).toBe(1024 * 1024);
    // The admin's API token (a JWT may have been ended by a fuzzed logout). Routes that refuse the
    // caller before reading a body (a role it lacks) cannot answer 413: a small probe finds them.
    const auth: [string, string] = ['Authorization', `Token ${secrets.realApiToken}`];
    const bodyRoutes: Route[] = [];
    for (const route of routes.filter((r) => r.method === 'POST')) {
      const probe = await send({
        method: 'POST',
        target: fillPath(route.url, ['fuzz-probe', 'no.such.user']),
        headers: [auth, ['Content-Type', 'application/json']],
        body: '{',
      });
      if (probe.status !== 401 && probe.status !== 403) bodyRoutes.push(route);
    }
    const reachable = bodyRoutes.map((r) => r.url);
    expect(reachable).toContain('/api/core/account/login');
    expect(reachable).toContain('/api/core/token/create/:token_name/:username');
    expect(reachable).toContain('/api/core/token/delete/:token_name/:username');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...bodyRoutes),
        fc.integer({ min: limit + 1, max: 2 * 1024 * 1024 }),
        fc.constantFrom('a', 'é', '\u{1D54F}', '\u0000', '\uD800', ' '),
        fc.constantFrom('json-string', 'json-object', 'raw'),
        fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain'),
        fc.option(fc.integer({ min: 4096, max: 300_000 }), { nil: undefined }),
        async (route, size, fill, shape, type, chunkSize) => {
          const unit = Buffer.byteLength(fill === '\uD800' ? '\uFFFD' : fill, 'utf8');
          const filler = fill.repeat(Math.ceil(size / unit));
          const text =
            shape === 'json-string'
              ? JSON.stringify(filler)
              : shape === 'json-object'
                ? JSON.stringify({ username: 'u', password: filler })
                : filler;
          const segments = ['fuzz-big', ADMIN.username];
          const req: RawRequest = {
            method: 'POST',
            target: fillPath(route.url, segments),
            headers: [['Content-Type', type], ...(isPublic(route) ? [] : [auth])],
            body: text,
            ...(chunkSize ? { chunkSize } : {}),
          };
          const a = await send(req);
          const failure = checkAnswer(
            `POST ${req.target} (${Buffer.byteLength(text)} ` +
              `bytes, ${chunkSize ? `chunks of ${chunkSize}` : 'Content-Length'}, ${type})`,
            a,
          );
          expect(a.status, show(req.target, a)).toBe(413);
          expect(failure?.code).toBe('payload_too_large');
        },
      ),
      { numRuns: runs(12) },
    );
  });

  it('answers malformed HTTP framing with a 4xx envelope', async () => {
    const H = `Host: 127.0.0.1\r\nConnection: close\r\n`;
    const login = 'POST /api/core/account/login HTTP/1.1\r\n';
    const cases: Record<string, string> = {
      CONNECT: `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n${H}\r\n`,
      'CONNECT to a route': `CONNECT /healthz HTTP/1.1\r\n${H}\r\n`,
      'Expect: junk': `GET /healthz HTTP/1.1\r\n${H}Expect: junk\r\n\r\n`,
      'Expect: junk on POST':
        `${login}${H}Expect: 200-ok\r\nContent-Type: ` + `application/json\r\nContent-Length: 2\r\n\r\n{}`,
      'lower-case method': `get /healthz HTTP/1.1\r\n${H}\r\n`,
      'bad method chars': `G@T /healthz HTTP/1.1\r\n${H}\r\n`,
      'HTTP/2.0': `GET /healthz HTTP/2.0\r\n${H}\r\n`,
      'HTTP/1.9': `GET /healthz HTTP/1.9\r\n${H}\r\n`,
      'no version': `GET /healthz\r\n${H}\r\n`,
      'space in target': `GET /api/core/token/user/a b HTTP/1.1\r\n${H}\r\n`,
      'raw UTF-8 in target': `GET /api/core/token/user/${utf8Bytes('é\u202e')} HTTP/1.1\r\n${H}\r\n`,
      'NUL in target': `GET /api/core/token/user/a\u0000 HTTP/1.1\r\n${H}\r\n`,
      'header without colon': `GET /api/core/token/user HTTP/1.1\r\n${H}Authorization Bearer x\r\n\r\n`,
      'space before colon': `GET /api/core/token/user HTTP/1.1\r\n${H}Authorization : Bearer x\r\n\r\n`,
      'NUL in header value': `GET /api/core/token/user HTTP/1.1\r\n${H}Authorization: Bearer a\u0000b\r\n\r\n`,
      'CR in header value': `GET /api/core/token/user HTTP/1.1\r\n${H}Authorization: Bearer a\rb\r\n\r\n`,
      'bare LF line ends': `GET /api/core/token/user HTTP/1.1\n${H.replace(/\r\n/g, '\n')}\n`,
      'obs-fold': `GET /api/core/token/user HTTP/1.1\r\n${H}Authorization: Bearer\r\n x\r\n\r\n`,
      'header name with unicode': `GET /healthz HTTP/1.1\r\n${H}X-${utf8Bytes('é')}: 1\r\n\r\n`,
      'two different Content-Length':
        `${login}${H}Content-Type: ` + `application/json\r\nContent-Length: ` + `2\r\nContent-Length: 3\r\n\r\n{}x`,
      'Content-Length and chunked':
        `${login}${H}Content-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: ` +
        `chunked\r\n\r\n0\r\n\r\n`,
      'negative Content-Length': `${login}${H}Content-Type: application/json\r\nContent-Length: -2\r\n\r\n{}`,
      'Content-Length not a number': `${login}${H}Content-Type: application/json\r\nContent-Length: 2x\r\n\r\n{}`,
      'Content-Length too short': `${login}${H}Content-Type: application/json\r\nContent-Length: 1\r\n\r\n{}`,
      'Transfer-Encoding gzip': `${login}${H}Content-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\n{}`,
      'Transfer-Encoding chunked twice':
        `${login}${H}Content-Type: application/json\r\nTransfer-Encoding: chunked, ` +
        `chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      'bad chunk size':
        `${login}${H}Content-Type: ` +
        `application/json\r\nTransfer-Encoding: ` +
        `chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      'chunk longer than declared':
        `${login}${H}Content-Type: ` +
        `application/json\r\nTransfer-Encoding: ` +
        `chunked\r\n\r\n1\r\n{}\r\n0\r\n\r\n`,
      'huge chunk size':
        `${login}${H}Content-Type: application/json\r\nTransfer-Encoding: ` +
        `chunked\r\n\r\nffffffffffffffffff\r\n{}\r\n0\r\n\r\n`,
      'chunk extension junk':
        `${login}${H}Content-Type: application/json\r\nTransfer-Encoding: ` +
        `chunked\r\n\r\n2;${'x'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
      'headers over 16 KiB':
        `GET /api/core/token/user ` + `HTTP/1.1\r\n${H}Authorization: ` + `Bearer ${'a'.repeat(20_000)}\r\n\r\n`,
      'target over 16 KiB': `GET /api/core/token/user/${'a'.repeat(20_000)} HTTP/1.1\r\n${H}\r\n`,
      'many headers':
        `GET /api/core/token/user ` +
        `HTTP/1.1\r\n${H}${Array.from({ length: 3000 }, (_, i) => `X-H${i}: ${i}\r\n`).join('')}\r\n`,
      'HTTP/1.0 without Host': 'GET /api/core/token/user HTTP/1.0\r\n\r\n',
      'HTTP/1.1 without Host': 'GET /api/core/token/user HTTP/1.1\r\nConnection: close\r\n\r\n',
      'two Host headers': `GET /api/core/token/user HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n`,
      'absolute-form target': `GET http://evil.example/api/core/token/user HTTP/1.1\r\n${H}\r\n`,
      'asterisk-form target': `OPTIONS * HTTP/1.1\r\n${H}\r\n`,
      'authority-form target on GET': `GET 127.0.0.1:80 HTTP/1.1\r\n${H}\r\n`,
      'HTTP/0.9 style': 'GET /healthz\r\n\r\n',
      'TLS ClientHello': '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003',
      'HTTP/2 preface': 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
      'binary junk': '\u0000\u0001\u0002\u00ff\r\n\r\n',
      'upgrade to websocket on a protected route':
        `GET /api/core/token/user HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: ` +
        `websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${b64(randomBytes(16))}\r\n\r\n`,
      'upgrade to h2c':
        `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: ` +
        `h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n`,
    };
    // Where the right answer is clear, the status too.
    const statusOf: Record<string, number> = {
      CONNECT: 404,
      'Expect: junk': 417,
      'Expect: junk on POST': 417,
      'HTTP/1.1 without Host': 400,
      'headers over 16 KiB': 431,
      'target over 16 KiB': 431,
      'two different Content-Length': 400,
      'Content-Length and chunked': 400,
      'bad chunk size': 400,
      'NUL in header value': 400,
      'HTTP/1.0 without Host': 401,
    };
    const failures: string[] = [];
    for (const [name, raw] of Object.entries(cases)) {
      const a = await sendBytes(Buffer.from(raw, 'latin1'), { timeoutMs: 10_000 });
      try {
        checkAnswer(name, a);
        if (statusOf[name] !== undefined) expect(a.status, name).toBe(statusOf[name]);
        // Ignored framing junk may reach a public route and be answered there (e.g. 200 from /healthz),
        // but a protected route must never answer 2xx to a request without credentials.
        if (/\/api\/core\/token\/user/.test(raw)) expect(a.status, name).toBeGreaterThanOrEqual(400);
      } catch (err) {
        failures.push(`${name}: ${(err as Error).message.split('\n').slice(0, 6).join(' | ')}`);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it('answers randomly mutated requests below 500, failures in the envelope', async () => {
    const seeds = [
      `GET /api/core/token/user/root.admin?ptoken=x HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ` +
        `a.b.c\r\nCookie: ptoken=x\r\nConnection: close\r\n\r\n`,
      `POST /api/core/account/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ` +
        `application/json\r\nContent-Length: 37\r\nConnection: ` +
        `close\r\n\r\n{"username":"u","password":"pw12345"}`,
      `POST /api/core/token/create/n/root.admin HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: ` +
        `chunked\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n`,
      `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...seeds),
        fc.array(
          fc.record({
            at: fc.nat(),
            op: fc.constantFrom('insert', 'replace', 'delete'),
            bytes: fc.oneof(
              fc.uint8Array({ minLength: 1, maxLength: 4 }),
              fc.constantFrom(
                ...['\r\n', ':', ' ', '\u0000', '\r', '\n', '%', '\u00ff', '0', '9'].map((s) =>
                  Uint8Array.from(Buffer.from(s, 'latin1')),
                ),
              ),
            ),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        async (seed, mutations) => {
          let bytes = Buffer.from(seed, 'latin1');
          for (const m of mutations) {
            const at = m.at % (bytes.length + 1);
            const piece = Buffer.from(m.bytes);
            bytes =
              m.op === 'insert'
                ? Buffer.concat([bytes.subarray(0, at), piece, bytes.subarray(at)])
                : m.op === 'replace'
                  ? Buffer.concat([bytes.subarray(0, at), piece, bytes.subarray(at + piece.length)])
                  : Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + piece.length)]);
          }
          const a = await sendBytes(bytes, {
            giveUpAfterMs: 400,
            timeoutMs: 10_000,
            head: bytes.toString('latin1').startsWith('HEAD '),
          });
          const name = JSON.stringify(bytes.toString('latin1'));
          // A request the mutation left incomplete waits for bytes that never come; this client
          // gives up on it. Anything the server answered, or closed on by itself, obeys the rules.
          if (a.dropped === 'abandoned') return;
          checkAnswer(name, a, { head: bytes.toString('latin1').startsWith('HEAD ') });
        },
      ),
      { numRuns: runs(150) },
    );
  });

  it('still answers /healthz and /readyz after the barrage, and logged no server fault', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const r = await instance.request(path);
      expect(r.status, r.text).toBe(200);
      expect(r.body.success).toBe(true);
    }
    const faults = instance
      .logs()
      .split('\n')
      .filter((line) => /"level":(50|60)/.test(line));
    expect(faults, faults.join('\n').slice(0, 4000)).toEqual([]);
  });
});
