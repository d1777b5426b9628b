// The console talks to the same public API as any client, same-origin, authenticated by the
// HttpOnly session cookie the login set (the console never sees or stores the JWT).

/** The API root relative to the console's page (/admin/), so a path prefix in front works too. */
export const API_ROOT = new URL('../', document.baseURI).pathname.replace(/\/$/, '');

/** Dispatched on window when an API call answers 401: the session is gone. */
export const SESSION_LOST = 'pc:session-lost';

export interface ErrorDetail {
  field?: string;
  rule?: string;
  message: string;
}

/** A failure answer of the API (its envelope), or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly retryAfterSeconds: number | null = null,
    /** The answer's requestID: the server's log lines about it carry the same id. */
    readonly requestId: string | null = null,
  ) {
    super(message);
  }
}

interface Envelope<T> {
  success: boolean;
  message: string;
  requestID: string;
  data: T;
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
}

export function apiUrl(path: string, query: RequestOptions['query'] = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return `${API_ROOT}${path}${qs ? `?${qs}` : ''}`;
}

/** Sends a request; a network failure becomes ApiError `network`, a 401 tells the app the session is gone. */
async function send(path: string, opts: RequestOptions = {}): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(apiUrl(path, opts.query), {
      method: opts.method ?? 'GET',
      credentials: 'same-origin',
      headers: opts.body !== undefined ? { 'content-type': 'application/json' } : {},
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'network', 'The server cannot be reached. Check the connection and try again.');
  }
  // The session ended (expired, signed out elsewhere, account locked): the app shows sign-in.
  if (res.status === 401 && !path.endsWith('/login')) dispatchEvent(new Event(SESSION_LOST));
  return res;
}

function parseEnvelope<T>(text: string): Envelope<T> | undefined {
  try {
    return JSON.parse(text) as Envelope<T>;
  } catch {
    return undefined;
  }
}

/** The failure answer `body` of `res` as an ApiError; `withDetails`: the details' messages join the message. */
function failureOf(res: Response, body: Envelope<unknown> | undefined, withDetails = false): ApiError {
  const data = (body?.data ?? {}) as { code?: string; details?: ErrorDetail[] };
  const details = data.details ?? [];
  const retry = Number(res.headers.get('retry-after'));
  const message = withDetails
    ? [...new Set([body?.message, ...details.map((d) => d.message)])].filter(Boolean).join(' — ')
    : body?.message;
  return new ApiError(
    res.status,
    data.code ?? `http_${res.status}`,
    message || res.statusText || 'The request failed',
    details,
    Number.isFinite(retry) && retry > 0 ? retry : null,
    body?.requestID ?? null,
  );
}

/** Calls the API and returns the envelope's data; a failure throws ApiError with the API's words. */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await send(path, opts);
  const body = parseEnvelope<T>(await res.text());
  if (!res.ok || !body || body.success === false) throw failureOf(res, body);
  return body.data;
}

/** A bare JSON answer (the uuid endpoints answer without the envelope). */
export async function apiBare<T>(path: string, query: RequestOptions['query'] = {}): Promise<T> {
  const res = await send(path, { query });
  if (!res.ok) throw failureOf(res, parseEnvelope(await res.text()));
  return (await res.json()) as T;
}

/** A document (a rendered report); a failure's message also carries its details' messages. */
export async function apiBlob(path: string, query: RequestOptions['query'] = {}): Promise<Blob> {
  const res = await send(path, { query });
  if (!res.ok) throw failureOf(res, parseEnvelope(await res.text()), true);
  return res.blob();
}
