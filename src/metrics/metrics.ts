// The instance's Prometheus metrics (docs/operations.md, Metrics): one prom-client registry per Services instance,
// not prom-client's global one, because tests build several instances in one process and each
// must count only its own requests. Every layer records with a one-line call on this object;
// gauges of the pools (render queue, database connections) are read from them at scrape time.
//
// The hot path (every HTTP request, every authentication) keeps its series as plain numbers
// (hot-series.ts); the rest uses prom-client's metrics as they are.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { AppError } from '../lib/errors.js';
import { registerCounter, registerHistogram, SeriesTable } from './hot-series.js';

export const METRICS_PREFIX = 'platform_core_';

/** The credential a request presented, as the auth hook knows it. */
export type AuthKind = 'jwt' | 'token' | 'malformed' | 'none';
export type AuthSource = 'header' | 'cookie' | 'query' | 'none';

/** Why workers of the render pool were replaced (src/lib/worker-pool counts them). */
export interface WorkerLosses {
  timeout: number;
  memory: number;
  crash: number;
  aborted: number;
}

export interface RenderPoolGauges {
  busy: number;
  queued: number;
  lost: WorkerLosses;
}

export interface ConnectionPoolUse {
  total: number;
  idle: number;
  waiting: number;
}

/** What a timed SRS step is about: the app, the definition and the template ('' for data.json
 *  and the starter, which render no template). Only names that exist reach here (the template is
 *  resolved before any SQL runs), so the label values stay few. */
export interface SrsLabels {
  app: string;
  srs: string;
  template: string;
}

const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SQL_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const RENDER_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** The route label of a request no route matched (a real route always starts with `/`). */
export const UNMATCHED_ROUTE = 'unmatched';

/** The statuses the platform answers with on its own, each a `status` label value of its own. */
const EXACT_STATUSES = [
  200, 201, 204, 301, 304, 400, 401, 403, 404, 409, 413, 414, 415, 417, 422, 429, 431, 499, 500, 503,
];
// Any other status is labelled by its class ("2xx"…"5xx"): a client may ask ping for any status
// from 200 to 599, and each value sent must not become series of its own.
const STATUS_LABELS = Array.from({ length: 600 }, (_, status) =>
  EXACT_STATUSES.includes(status) ? String(status) : `${Math.floor(status / 100)}xx`,
);

/** The `status` label of an answered status: itself for the platform's own, else its class. */
export const statusLabel = (status: number): string =>
  STATUS_LABELS[status] ?? `${Math.floor(Math.min(Math.max(status, 0), 999) / 100)}xx`;

type HttpLabels = { route: string; method: string; status: string };
type AuthLabels = { kind: AuthKind; source: AuthSource; reason: string };

export class Metrics {
  readonly registry = new Registry();
  private readonly http = new SeriesTable<string, string, string, HttpLabels>(
    (route, method, status) => ({ route, method, status }),
    HTTP_BUCKETS,
  );
  private readonly auth = new SeriesTable<AuthKind, AuthSource, string, AuthLabels>((kind, source, reason) => ({
    kind,
    source,
    reason,
  }));
  private readonly logins: Counter<'kind' | 'outcome'>;
  private readonly lockouts: Counter<'subject'>;
  private readonly rateLimited: Counter<'limit'>;
  private readonly renderDuration: Histogram<'app' | 'srs' | 'template' | 'format' | 'outcome'>;
  private readonly commandDuration: Histogram<'app' | 'srs' | 'template' | 'outcome'>;
  private renderPool: (() => RenderPoolGauges) | null = null;
  private readonly databasePools = new Map<string, () => ConnectionPoolUse>();

  constructor() {
    const registers = [this.registry];
    const p = METRICS_PREFIX;
    registerCounter(
      this.registry,
      this.http,
      `${p}http_requests_total`,
      'HTTP requests answered, by route pattern, method and status (the class, as 4xx, for a ' +
        'status the platform does not answer with on its own)',
      ['route', 'method', 'status'],
    );
    registerHistogram(
      this.registry,
      this.http,
      `${p}http_request_duration_seconds`,
      'Time from receiving a request to sending its answer, by route pattern, method and status',
    );
    registerCounter(
      this.registry,
      this.auth,
      `${p}auth_outcomes_total`,
      'Authentications of requests, by credential kind (jwt, token, malformed, none), where it was ' +
        'presented (header, cookie, query) and result (ok, or the error code)',
      ['kind', 'source', 'reason'],
    );
    this.logins = new Counter({
      name: `${p}logins_total`,
      help: 'Login attempts, by kind (password, api_token) and outcome (success, or the error code)',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.lockouts = new Counter({
      name: `${p}lockouts_total`,
      help: 'Lockouts after failed passwords, by subject (account, unknown_username)',
      labelNames: ['subject'],
      registers,
    });
    this.rateLimited = new Counter({
      name: `${p}rate_limit_rejections_total`,
      help: 'Requests refused by a rate limit (429), by limit',
      labelNames: ['limit'],
      registers,
    });
    this.renderDuration = new Histogram({
      name: `${p}render_duration_seconds`,
      help:
        'Report renders on the render pool, from submission (waiting for a worker included) to the ' +
        'answer, by app, SRS, template, format and outcome (ok, error)',
      labelNames: ['app', 'srs', 'template', 'format', 'outcome'],
      buckets: RENDER_BUCKETS,
      registers,
    });
    this.commandDuration = new Histogram({
      name: `${p}srs_commands_duration_seconds`,
      help:
        "Runs of an SRS definition's SQL commands (one transaction per request), by app, SRS, " +
        "template ('' for data.json and the starter) and outcome (ok, error)",
      labelNames: ['app', 'srs', 'template', 'outcome'],
      buckets: SQL_BUCKETS,
      registers,
    });
    const metrics = this;
    new Gauge({
      name: `${p}render_queue_length`,
      help: 'Renders waiting for a worker of the render pool',
      registers,
      collect() {
        if (metrics.renderPool) this.set(metrics.renderPool().queued);
      },
    });
    new Gauge({
      name: `${p}render_workers_busy`,
      help: 'Workers of the render pool running a render now',
      registers,
      collect() {
        if (metrics.renderPool) this.set(metrics.renderPool().busy);
      },
    });
    new Counter({
      name: `${p}render_worker_restarts_total`,
      help:
        'Render workers lost and replaced, by reason (timeout and memory: a render over its limit; ' +
        'crash; aborted: the client went away)',
      labelNames: ['reason'],
      registers,
      collect() {
        if (!metrics.renderPool) return;
        const lost = metrics.renderPool().lost;
        this.reset();
        for (const reason of Object.keys(lost) as (keyof WorkerLosses)[]) this.inc({ reason }, lost[reason]);
      },
    });
    new Gauge({
      name: `${p}db_pool_connections`,
      help: 'PostgreSQL connection pools, by pool (platform, reports) and state (total, idle, waiting: clients queued)',
      labelNames: ['pool', 'state'],
      registers,
      collect() {
        for (const [pool, use] of metrics.databasePools) {
          const u = use();
          this.set({ pool, state: 'total' }, u.total);
          this.set({ pool, state: 'idle' }, u.idle);
          this.set({ pool, state: 'waiting' }, u.waiting);
        }
      },
    });
  }

  /**
   * Process metrics (CPU, memory, heap, event-loop lag, GC) under the same prefix. They start
   * process-wide monitors that are never stopped, so only an instance that serves its metrics
   * turns them on.
   */
  collectProcessMetrics(): void {
    collectDefaultMetrics({ register: this.registry, prefix: METRICS_PREFIX });
  }

  /** The text of a scrape, and its content type. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }

  /** One answered request. `route`: the route pattern (never the URL), or UNMATCHED_ROUTE. */
  httpRequest(route: string, method: string, status: number, seconds: number): void {
    this.http.observe(this.http.get(route, method, statusLabel(status)), seconds);
  }

  /** One authentication of a request: `reason` is 'ok', 'missing' or the error code. */
  authOutcome(kind: AuthKind, source: AuthSource, reason: string): void {
    this.auth.get(kind, source, reason).count++;
  }

  login(kind: 'password' | 'api_token', outcome: string): void {
    this.logins.inc({ kind, outcome });
  }

  lockout(subject: 'account' | 'unknown_username'): void {
    this.lockouts.inc({ subject });
  }

  rateLimitRejected(limit: string): void {
    this.rateLimited.inc({ limit });
  }

  render(labels: SrsLabels, format: string, ok: boolean, seconds: number): void {
    this.renderDuration.observe({ ...labels, format, outcome: ok ? 'ok' : 'error' }, seconds);
  }

  srsCommands(labels: SrsLabels, ok: boolean, seconds: number): void {
    this.commandDuration.observe({ ...labels, outcome: ok ? 'ok' : 'error' }, seconds);
  }

  /** The render pool whose queue and workers are reported at each scrape. */
  watchRenderPool(stats: () => RenderPoolGauges): void {
    this.renderPool = stats;
  }

  /** A PostgreSQL pool whose connections are reported at each scrape. */
  watchDatabasePool(name: string, use: () => ConnectionPoolUse): void {
    this.databasePools.set(name, use);
  }
}

/** The outcome label of a failure: an AppError's stable code, or 'error' for anything else (a
 *  database fault), so the label values stay the few codes the code base defines. */
export const outcomeOf = (err: unknown): string => (err instanceof AppError ? err.code : 'error');
