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

/** Calls the API and returns the envelope's data; a failure throws ApiError with the API's words. */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
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
  const text = await res.text();
  let body: Envelope<T> | undefined;
  try {
    body = JSON.parse(text) as Envelope<T>;
  } catch {
    body = undefined;
  }
  // The session ended (expired, signed out elsewhere, account locked): the app shows sign-in.
  if (res.status === 401 && !path.endsWith('/login')) dispatchEvent(new Event(SESSION_LOST));
  if (!res.ok || !body || body.success === false) {
    const data = (body?.data ?? {}) as { code?: string; details?: ErrorDetail[] };
    const retry = Number(res.headers.get('retry-after'));
    throw new ApiError(
      res.status,
      data.code ?? `http_${res.status}`,
      body?.message || res.statusText || 'The request failed',
      data.details ?? [],
      Number.isFinite(retry) && retry > 0 ? retry : null,
      body?.requestID ?? null,
    );
  }
  return body.data;
}

/** A bare JSON answer (the uuid endpoints answer without the envelope). */
export async function apiBare<T>(path: string, query: RequestOptions['query'] = {}): Promise<T> {
  const res = await fetch(apiUrl(path, query), { credentials: 'same-origin' });
  if (!res.ok) return api<T>(path, { query });
  return (await res.json()) as T;
}
