// Every setting and environment variable an instance reads: its default, its bounds and what it
// does. config.ts validates by this table, and scripts/config-reference.ts writes
// docs/configuration.md from it, so the documentation and the code read the same values.

export type SettingKind = 'integer' | 'number' | 'boolean' | 'string' | 'list' | 'path' | 'url' | 'secret';

export interface SettingEntry {
  readonly kind: SettingKind;
  /** The value used when the setting is absent; absent here: none, or `defaultText` says how it is computed. */
  readonly fallback?: number | boolean | string;
  /** The default in words, when it is computed at start (from the CPU count, another setting). */
  readonly defaultText?: string;
  readonly min?: number;
  readonly max?: number;
  /** One sentence or two for the reference: what the setting changes. */
  readonly description: string;
}

/** Defaults and bounds of the render limits, shared with the CLI's render flags that override them. */
export const RENDER_TIMEOUT_SECONDS = { fallback: 60, min: 0.1, max: 3600 } as const;
export const RENDER_MEMORY_MB = { fallback: 512, min: 64, max: 65_536 } as const;
export const RENDER_MAX_PAGES = { fallback: 10_000, min: 1, max: 1_000_000 } as const;
export const SCRIPT_MAX_STEPS = { fallback: 20_000_000, min: 10_000, max: 2_000_000_000 } as const;
export const SCRIPT_MAX_ITEMS = { fallback: 2_000_000, min: 1_000, max: 100_000_000 } as const;

const WORKERS_DEFAULT = 'CPU cores − 1 (at least 1)';

/** The `Settings` section, by key (`Settings:<key>` in the file, `Settings__<key>` in the environment). */
export const SETTINGS = {
  JwtExpireHours: {
    kind: 'number',
    fallback: 24,
    min: 0.01,
    max: 24 * 365,
    description:
      'Lifetime of the JWTs login issues. A JWT whose own lifetime (`exp − iat`) is longer is refused, ' +
      'so give every instance the same value; lowering it ends the longer sessions already issued.',
  },
  JwtSigningKeyFile: {
    kind: 'path',
    description:
      'A file holding the JWT signing key (base64, at least 32 bytes) instead of the key kept in the ' +
      'database. A warning is logged when others may read the file.',
  },
  JwtSigningKey: {
    kind: 'secret',
    description:
      'The JWT signing key itself (base64, at least 32 bytes), for `Settings__JwtSigningKey` in the environment.',
  },
  SecretsKeyFile: {
    kind: 'path',
    description:
      'A file holding the key (base64, at least 32 bytes) that encrypts the secrets kept in the database ' +
      '(TOTP secrets), instead of the key kept in the database. It cannot be rotated: the secrets would be lost.',
  },
  SecretsKey: {
    kind: 'secret',
    description: 'That key itself (base64, at least 32 bytes), for `Settings__SecretsKey` in the environment.',
  },
  BodyLimitBytes: {
    kind: 'integer',
    fallback: 1024 * 1024,
    min: 1024,
    max: 1024 * 1024 * 1024,
    description: 'Largest request body; a larger one is answered 413.',
  },
  AccessLog: {
    kind: 'boolean',
    fallback: false,
    description: 'One log line per request. Errors, authentication failures and slow requests are logged regardless.',
  },
  SlowRequestMs: {
    kind: 'integer',
    fallback: 1000,
    min: 1,
    max: 3_600_000,
    description: 'Requests that take longer than this are logged as slow.',
  },
  OwnerName: { kind: 'string', fallback: 'Platform Core', description: 'The instance owner, reported by the API.' },
  OwnerLanguage: { kind: 'string', fallback: 'en', description: 'The instance owner’s language, reported by the API.' },
  PublicUrl: {
    kind: 'url',
    defaultText: 'the request’s origin',
    description: 'The API’s public http(s) URL, reported by the API.',
  },
  LockoutMaxFailedAttempts: {
    kind: 'integer',
    fallback: 5,
    min: 1,
    max: 1000,
    description: 'Failed passwords in a row (each within `LockoutMinutes` of the last) that lock an account.',
  },
  LockoutMinutes: {
    kind: 'number',
    fallback: 5,
    min: 0.01,
    max: 525_600,
    description: 'How long a lockout after failed passwords lasts, and the window in which failures count.',
  },
  PasswordMinLength: {
    kind: 'integer',
    fallback: 12,
    min: 8,
    max: 1024,
    description:
      'The fewest characters a new password may have. Whatever the length, a password on the list of common ' +
      'and breached passwords, one the strength estimator scores 0–1 or one containing the username is refused. ' +
      'Passwords already set keep working.',
  },
  MfaFreshMinutes: {
    kind: 'number',
    fallback: 15,
    min: 1,
    max: 1440,
    description:
      'For an account with a second factor: how recently its session must have passed it to create an API ' +
      'token, change the password or a factor, or reset one (else 401 `mfa_step_up_required`).',
  },
  MfaRequiredRoles: {
    kind: 'list',
    defaultText: 'none',
    description:
      'Roles whose holders must have a second factor: after a password sign-in such an account without one ' +
      'may only enrol one (403 `mfa_enrolment_required` elsewhere). `sys_administrator` is recommended.',
  },
  LoginRateLimitPerUser: {
    kind: 'integer',
    fallback: 30,
    min: 1,
    max: 1_000_000,
    description: 'Login attempts a minute per (address, username), counted in the database for all instances.',
  },
  LoginRateLimitPerAddress: {
    kind: 'integer',
    fallback: 300,
    min: 1,
    max: 1_000_000,
    description: 'Login attempts a minute per client address, counted in the database for all instances.',
  },
  AuditRetentionDays: {
    kind: 'integer',
    fallback: 90,
    min: 1,
    max: 36_500,
    description: 'How long audit trail entries are kept; older ones are deleted in the background every hour.',
  },
  AuthCacheSeconds: {
    kind: 'number',
    fallback: 30,
    min: 0,
    max: 60,
    description:
      'How long verified credentials and account state are reused. Changes made on another instance or ' +
      'by the CLI are announced and take effect within a second; this bounds the wait when announcements are lost.',
  },
  AllowedOrigins: {
    kind: 'list',
    description:
      'Origins, besides the server’s own, allowed to send cookie-authenticated POSTs and logouts ' +
      '(comma-separated, or a JSON array).',
  },
  FontDirs: {
    kind: 'list',
    description:
      'The operator’s font directories (comma-separated, or a JSON array; relative to the working ' +
      'directory): their `.ttf`/`.otf` faces draw characters the bundled fonts lack, before Debian’s ' +
      '`fonts-noto-*`. HTML reports are served the same files.',
  },
  TrustProxy: {
    kind: 'boolean',
    fallback: false,
    description:
      'Take the client address from `X-Forwarded-For` and the scheme from `X-Forwarded-Proto`. ' +
      'Set it only behind a proxy you trust.',
  },
  LogLevel: {
    kind: 'string',
    fallback: 'info',
    description:
      'Log level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent` (the environment ' +
      'variable `LOG_LEVEL` is read when this is unset).',
  },
  RenderWorkers: {
    kind: 'integer',
    defaultText: WORKERS_DEFAULT,
    min: 1,
    max: 64,
    description: 'Worker threads that render reports.',
  },
  RenderQueueLimit: {
    kind: 'integer',
    defaultText: '4 × `RenderWorkers`',
    min: 0,
    max: 10_000,
    description: 'Renders that may wait for a worker; beyond, 503 `render_busy` with `Retry-After`.',
  },
  RenderWarmup: {
    kind: 'boolean',
    fallback: true,
    description:
      '`serve` starts every render worker once it listens and has each render a built-in report, so ' +
      'the first real report is not slowed by a cold start. `false`: workers start at the first render.',
  },
  RenderTimeoutSeconds: {
    kind: 'number',
    ...RENDER_TIMEOUT_SECONDS,
    description: 'Longest render; its worker is stopped and replaced, and the answer is 422 `render_timeout`.',
  },
  RenderMemoryMb: {
    kind: 'integer',
    ...RENDER_MEMORY_MB,
    description: 'Heap limit of a render worker; beyond, 422 `render_too_large`.',
  },
  RenderMaxPages: {
    kind: 'integer',
    ...RENDER_MAX_PAGES,
    description: 'Most pages of a rendered report; a longer one is 422 `render_too_large` (see `_max_pages`).',
  },
  ScriptMaxSteps: {
    kind: 'integer',
    ...SCRIPT_MAX_STEPS,
    description:
      'Statements and expression steps a report script may run per render; past it the render is ' +
      '422 `template_error` naming the handler and line.',
  },
  ScriptMaxItems: {
    kind: 'integer',
    ...SCRIPT_MAX_ITEMS,
    description: 'Collection items (list, dictionary and array elements) a report script may hold.',
  },
  SrsStatementTimeoutSeconds: {
    kind: 'number',
    fallback: 30,
    min: 0.1,
    max: 3600,
    description: 'Longest SQL statement of an SRS command; beyond, 422 `command_failed`.',
  },
  SrsMaxRows: {
    kind: 'integer',
    fallback: 100_000,
    min: 1,
    max: 10_000_000,
    description: 'Most rows one SRS command may return.',
  },
  PreviewWorkers: {
    kind: 'integer',
    defaultText: WORKERS_DEFAULT,
    min: 1,
    max: 64,
    description: 'Worker threads of the markdown preview.',
  },
  PreviewQueueLimit: {
    kind: 'integer',
    defaultText: '4 × `PreviewWorkers`',
    min: 0,
    max: 10_000,
    description: 'Previews that may wait for a worker; beyond, 503 `preview_busy`.',
  },
  PreviewTimeoutSeconds: {
    kind: 'number',
    fallback: 10,
    min: 0.01,
    max: 600,
    description: 'Longest preview; its worker is stopped and replaced, and the answer is 422 `preview_timeout`.',
  },
  PreviewMemoryMb: {
    kind: 'integer',
    fallback: 512,
    min: 64,
    max: 65_536,
    description: 'Heap limit of a preview worker; beyond, 422 `preview_too_large`.',
  },
  DatabaseConnectTimeoutSeconds: {
    kind: 'number',
    fallback: 5,
    min: 0.1,
    max: 600,
    description:
      'PostgreSQL: longest wait for a new or a pooled connection. A start that cannot connect fails ' +
      'after it, in one line naming the host.',
  },
  DatabaseStatementTimeoutSeconds: {
    kind: 'number',
    fallback: 10,
    min: 0.1,
    max: 3600,
    description: 'PostgreSQL: longest query of the platform’s own; beyond, 503 `database_unavailable`.',
  },
  ShutdownGraceSeconds: {
    kind: 'number',
    fallback: 10,
    min: 0,
    max: 3600,
    description: 'After SIGTERM or SIGINT, how long requests in progress may take before their connections are closed.',
  },
  MetricsToken: {
    kind: 'secret',
    description:
      'The bearer token of `GET /metrics` on the public port (at least 16 characters). Unset: no ' +
      '`/metrics` on the public port.',
  },
} as const satisfies Record<string, SettingEntry>;

export type SettingKey = keyof typeof SETTINGS;

export interface EnvironmentEntry {
  readonly name: string;
  readonly defaultText: string;
  readonly description: string;
}

/** The environment variables read besides `Settings__…` (all of them, in src/config only). */
export const ENVIRONMENT: readonly EnvironmentEntry[] = [
  { name: 'PORT', defaultText: '8080', description: 'The port the server listens on (0–65535).' },
  { name: 'HOST', defaultText: '0.0.0.0', description: 'The address the server listens on.' },
  {
    name: 'METRICS_PORT',
    defaultText: 'unset',
    description:
      'A listener of its own that serves only `GET /metrics`, without credentials (must differ from `PORT`).',
  },
  { name: 'METRICS_HOST', defaultText: '`HOST`', description: 'The address of the metrics listener.' },
  {
    name: 'DATA_DIR',
    defaultText: '`./data`',
    description:
      'The SQLite files (the platform’s and the apps’), the initial administrator’s password file and ' +
      'the cancel hook. Created with mode 0700.',
  },
  {
    name: 'DATABASE_URL',
    defaultText: 'unset',
    description: 'Unset: SQLite in `DATA_DIR`. `postgres://user:password@host:5432/dbname`: PostgreSQL.',
  },
  {
    name: 'APPS_DIR',
    defaultText: 'the installation’s `apps/`',
    description: 'The report applications, one folder each (`<app>/templates`, `<app>/srs`).',
  },
  {
    name: 'PLATFORM_ADMIN_USERNAME',
    defaultText: '`admin`',
    description: 'The username of the administrator created at first start, when no administrator exists.',
  },
  {
    name: 'PLATFORM_ADMIN_PASSWORD',
    defaultText: 'generated',
    description: 'That administrator’s password. Unset: a random one is written to `DATA_DIR/initial-admin-password`.',
  },
  {
    name: 'CONFIG_FILE',
    defaultText: '`./appsettings.json` when present',
    description: 'The settings file. A file named here that does not exist stops the start.',
  },
  { name: 'LOG_LEVEL', defaultText: '`info`', description: 'The log level when `Settings:LogLevel` is unset.' },
];
