// Maps every failure to the envelope with a stable code (docs/api.md, Envelope and errors).
// No stack trace or SQL text ever reaches a client; real server faults are logged with the
// request id at error. A 503 is expected back-pressure (the database down, a full disk, a busy
// queue), which comes in floods: a warning, once per cause per interval.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { AppError, invalid, unavailable, type ErrorDetail, type ErrorKind } from '../lib/errors.js';
import { envelope } from './envelope.js';
import { isoMicros } from '../lib/time.js';
import { requestIdFor } from './request-id.js';
import { redactText, redactUrl } from './url-redaction.js';
import { databaseFault, isUniqueViolation, type DatabaseFault } from '../db/database-errors.js';
import { ThrottledWarnings, type WarnSink } from '../lib/throttled-warnings.js';

interface ValidationIssue {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

function validationDetails(issues: ValidationIssue[], context: string | undefined): ErrorDetail[] {
  return issues.map((v) => {
    const path = (v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    const missing = v.params?.missingProperty ?? v.params?.additionalProperty;
    const field = [path, typeof missing === 'string' ? missing : ''].filter(Boolean).join('.') || context || undefined;
    const rule = v.keyword ?? 'invalid';
    const message = v.keyword === 'additionalProperties' ? 'is not an accepted field' : (v.message ?? 'is invalid');
    return { ...(field ? { field } : {}), rule, message: `${field ?? context ?? 'value'} ${message}` };
  });
}

/** Known framework errors → [status, code, message]. */
const FRAMEWORK_ERRORS: Record<string, [number, string, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large', 'The request body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type', 'Unsupported Content-Type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'invalid_body', 'Content-Length does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid_json', 'The JSON body is empty'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid_json', 'The body is not valid JSON'],
  FST_ERR_CTP_EMPTY_TYPE: [415, 'unsupported_media_type', 'Content-Type is empty'],
  FST_ERR_CTP_INVALID_TYPE: [415, 'unsupported_media_type', 'Unsupported Content-Type'],
  FST_ERR_BAD_URL: [400, 'bad_url', 'The URL is malformed'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'uri_too_long', 'A path segment of the URL is too long'],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'bad_request', 'The request could not be routed'],
};

function isPostgresDataException(err: unknown): boolean {
  const e = err as { code?: unknown; severity?: unknown };
  return typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code) && typeof e.severity === 'string';
}

/** How long a client should wait before retrying after a database fault. */
const DATABASE_RETRY_AFTER_SECONDS = 2;

const DATABASE_FAULTS: Record<DatabaseFault, [string, string]> = {
  unavailable: ['database_unavailable', 'The database is not available; retry shortly'],
  busy: ['database_busy', 'The database is busy; retry shortly'],
  storage_full: ['storage_full', 'The database storage is full; nothing was saved'],
};

/** The HTTP status of each kind of failure the domains report (src/lib/errors.ts). */
const STATUS_OF_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  // nginx's "client closed request": only the log sees it, the client has gone.
  client_gone: 499,
  unavailable: 503,
};

const WWW_AUTHENTICATE = 'Bearer realm="platform-core", Token realm="platform-core"';

/** What the client is sent for a failure. */
interface ErrorAnswer {
  status: number;
  code: string;
  message: string;
  details?: ErrorDetail[] | undefined;
  headers?: Record<string, string>;
}

/** A domain's error as an answer: its kind gives the status, and the headers that go with it. */
function answerFor(err: AppError): ErrorAnswer {
  const headers: Record<string, string> = {};
  if (err.kind === 'unauthenticated') headers['WWW-Authenticate'] = WWW_AUTHENTICATE;
  if (err.retryAfterSeconds !== undefined) headers['Retry-After'] = String(err.retryAfterSeconds);
  return { status: STATUS_OF_KIND[err.kind], code: err.code, message: err.message, details: err.details, headers };
}

/** A database fault as the client sees it: 503 with Retry-After (nothing was saved). */
function databaseFaultAnswer(fault: DatabaseFault): ErrorAnswer {
  const [code, message] = DATABASE_FAULTS[fault];
  return answerFor(unavailable(code, message, DATABASE_RETRY_AFTER_SECONDS));
}

function classify(err: FastifyError & { validation?: ValidationIssue[]; validationContext?: string }): ErrorAnswer {
  if (err instanceof AppError) return answerFor(err);
  const fault = databaseFault(err);
  if (fault) return databaseFaultAnswer(fault);
  // A repository that did not expect the race: still the client's conflict, not a server fault.
  if (isUniqueViolation(err))
    return { status: 409, code: 'conflict', message: 'The change conflicts with a parallel one; reload and retry' };
  if (err.validation) {
    const details = validationDetails(err.validation, err.validationContext);
    return { status: 400, code: 'invalid_input', message: details[0]?.message ?? 'Invalid input', details };
  }
  const known = err.code ? FRAMEWORK_ERRORS[err.code] : undefined;
  if (known) return { status: known[0], code: known[1], message: known[2] };
  if (isPostgresDataException(err)) {
    // SQLSTATE class 22 (data exception: too long, bad encoding, out of range) means the input
    // did not fit a column; validation should have caught it, so it is still logged.
    return { status: 400, code: 'invalid_input', message: 'A value does not fit the field it is stored in' };
  }
  if (err instanceof SyntaxError || (err.statusCode === 400 && /JSON/i.test(err.message))) {
    return { status: 400, code: 'invalid_json', message: 'The body is not valid JSON' };
  }
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) return { status, code: 'bad_request', message: 'The request is malformed' };
  return { status: 500, code: 'internal_error', message: 'Internal server error' };
}

const LOGIN_ROUTE = '/api/core/account/login';
/** The 401 of a request that presented no credential at all: the console asking whether it has a
 *  session, a visitor's first request. Not a failed authentication, so not the warn line that
 *  fail2ban acts on (its access line still records the 401). */
const NO_CREDENTIAL = 'authentication_required';
const isLogin = (request: FastifyRequest): boolean => request.routeOptions.url === LOGIN_ROUTE;

/** The login body's username, clipped: it is whatever the client typed. */
function typedUsername(request: FastifyRequest): string | undefined {
  const body = request.body as { username?: unknown } | null | undefined;
  return typeof body?.username === 'string' ? body.username.slice(0, 256) : undefined;
}

/** What a 503's line says of its cause: the driver's code (SQLSTATE, SQLITE_FULL) and message,
 *  no stack (the cause is known, and repeated). */
function reasonOf(err: unknown): Record<string, unknown> {
  const cause = err instanceof AppError ? err.cause : err;
  if (!(cause instanceof Error)) return {};
  const code = (cause as { code?: unknown }).code;
  return {
    reason: { type: cause.name, ...(typeof code === 'string' ? { code } : {}), message: redactText(cause.message) },
  };
}

/** How the app's error handler reports what it answers. */
interface FailureReporting {
  onDatabaseFault?: ((fault: DatabaseFault) => void) | undefined;
  backPressure: ThrottledWarnings;
}

function sendError(
  err: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  reporting?: FailureReporting,
): FastifyReply {
  const answer = classify(err);
  if (answer.status === 503) {
    // The real cause is logged; the client gets the stable code.
    const fault = databaseFault(err);
    if (fault) reporting?.onDatabaseFault?.(fault);
    const message = fault ? 'database fault' : 'service unavailable';
    const fields = { code: answer.code, ...reasonOf(err) };
    if (reporting) reporting.backPressure.warn(answer.code, fields, message, request.log);
    else request.log.warn(fields, message);
  } else if (answer.status >= 500) {
    request.log.error({ err }, 'request failed');
  } else if (isPostgresDataException(err)) {
    request.log.warn({ err }, 'input passed validation but did not fit the database');
  } else if ((answer.status === 401 && answer.code !== NO_CREDENTIAL) || (answer.status === 429 && isLogin(request))) {
    // A failed login names the username as typed and the client: what an operator (or fail2ban)
    // needs to see who is being tried from where.
    const username = isLogin(request) ? typedUsername(request) : undefined;
    request.log.warn(
      { code: answer.code, url: request.routeOptions.url, client: request.ip, ...(username ? { username } : {}) },
      answer.status === 429 ? 'login rate-limited' : 'authentication failed',
    );
  }
  if (answer.headers) reply.headers(answer.headers);
  const data = answer.details ? { code: answer.code, details: answer.details } : { code: answer.code };
  return reply.code(answer.status).send(envelope(request, data, answer.message, false));
}

/**
 * Fastify's `frameworkErrors` option: URLs the router cannot decode (bad percent-encoding) or
 * whose parameters are too long never reach the error handler; without this they are answered
 * in Fastify's own format instead of the envelope.
 */
export function frameworkErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // No route context here, so no onRequest hook has set the request id header.
  reply.header('X-Request-Id', request.id);
  sendError(err, request, reply);
}

/**
 * Node answers an HTTP/1.1 request without Host with a bare 400 unless told not to
 * (`http.requireHostHeader: false` in app.ts); the first onRequest hook refuses it with this,
 * in the envelope.
 */
export function missingHost(request: FastifyRequest): AppError | null {
  return request.raw.httpVersion === '1.1' && request.headers.host === undefined
    ? invalid('missing_host', 'An HTTP/1.1 request needs a Host header')
    : null;
}

export interface ErrorHandlingOptions {
  /** Where the repeats of a 503's cause are reported once its interval ends. */
  logger: WarnSink;
  /** Told of every database fault answered (readiness reports a full disk). */
  onDatabaseFault?: (fault: DatabaseFault) => void;
  /** Ties a reply to its response for the metrics and access lines (src/http/response-end.ts):
   *  the not-found handler is the first to see an unknown route's request. */
  track?: (reply: FastifyReply) => void;
}

export function installErrorHandling(app: FastifyInstance, opts: ErrorHandlingOptions): void {
  const reporting: FailureReporting = {
    onDatabaseFault: opts.onDatabaseFault,
    backPressure: new ThrottledWarnings(opts.logger),
  };
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    sendError(err, request, reply, reporting),
  );
  app.addHook('onClose', async () => reporting.backPressure.flush());

  // Unknown routes have no route gate (src/http/auth-hook.ts), so the request id is set here.
  // The message names the path without the query (which the router starts at `?` or `#`), and
  // what is left is redacted too: a `;ptoken=…` path parameter is part of the path.
  const track = opts.track;
  app.setNotFoundHandler((request, reply) => {
    track?.(reply);
    return reply
      .header('X-Request-Id', request.id)
      .code(404)
      .send(
        envelope(
          request,
          { code: 'route_not_found' },
          `No route ${request.method} ${redactUrl(request.url.split(/[?#]/)[0]!)}`,
          false,
        ),
      );
  });

  // Requests Node answers (or drops) before Fastify sees them: answer them in the envelope too.
  app.server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    // Any Expect other than 100-continue (Node's default: a bare 417).
    const id = requestIdFor(req);
    const body = rawEnvelope(id, 'expectation_failed', 'Only "Expect: 100-continue" is supported');
    // Set one by one (not passed to writeHead): the end-of-response line reads the id back.
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.setHeader('X-Request-Id', id);
    res.setHeader('Connection', 'close');
    res.writeHead(417);
    res.end(body);
  });
  app.server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    // CONNECT (a proxy request): Node would close the connection without an answer.
    const id = requestIdFor(req);
    const body = rawEnvelope(id, 'route_not_found', `No route CONNECT ${String(req.url).slice(0, 200)}`);
    socket.on('error', () => socket.destroy());
    socket.end(
      `HTTP/1.1 404 Not Found\r\nContent-Type: application/json; ` +
        `charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\nConnection: ` +
        `close\r\n\r\n${body}`,
    );
  });
}

function rawEnvelope(requestID: string, code: string, message: string): string {
  return JSON.stringify({ success: false, message, requestID, executed_at: isoMicros(), data: { code } });
}

/** Malformed HTTP (bad headers, bad framing) never reaches a route: answer it in the envelope too. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy(err);
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const body = rawEnvelope(
    '',
    tooLarge ? 'headers_too_large' : 'bad_request',
    tooLarge ? 'Request headers too large' : 'Malformed HTTP request',
  );
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: ` +
      `application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: ` +
      `close\r\n\r\n${body}`,
  );
}
