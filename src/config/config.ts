// The typed configuration of one instance. Every value is validated here so that a bad setting
// stops the start with a message naming it, instead of failing later at first use.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { ConfigError, lookupSetting, readSettingsFile, unknownSettingWarnings } from './settings-source.js';

export { ConfigError } from './settings-source.js';

export interface Settings {
  jwtExpireHours: number;
  /** A file holding the JWT signing key (base64), instead of the key kept in the database. */
  jwtSigningKeyFile: string | null;
  /** The JWT signing key itself (base64), for the environment (Settings__JwtSigningKey). */
  jwtSigningKey: string | null;
  bodyLimitBytes: number;
  accessLog: boolean;
  slowRequestMs: number;
  ownerName: string;
  ownerLanguage: string;
  publicUrl: string | null;
  lockoutMaxFailedAttempts: number;
  lockoutMinutes: number;
  loginRateLimitPerUser: number;
  loginRateLimitPerAddress: number;
  /** How long verified credentials and account state are reused before being re-read (≤ 60 s). */
  authCacheSeconds: number;
  /** Origins allowed for cookie-authenticated state-changing requests besides the server's own. */
  allowedOrigins: string[];
  /** Settings:FontDirs: the operator's font directories, tried (after the npm fonts, before
   *  Debian's Noto packages) for characters no other font has. */
  fontDirs: string[];
  trustProxy: boolean;
  logLevel: string;
  /** Report rendering (SRS): worker threads that render reports off the event loop. */
  renderWorkers: number;
  /** Renders waiting for a worker beyond which requests are refused with 503 + Retry-After. */
  renderQueueLimit: number;
  /** `serve` starts the render workers once it listens and warms each up (RenderPool.warmUp). */
  renderWarmup: boolean;
  /** Longest a single render may take before its worker is stopped. */
  renderTimeoutSeconds: number;
  /** Heap limit of a render worker. */
  renderMemoryMb: number;
  /** Most pages a report may have; a longer one is refused with 422 render_too_large. */
  renderMaxPages: number;
  /** A report script's budgets for one render: statements and expression steps, and the
   *  collection items it holds; past either the render ends with a template error. */
  scriptMaxSteps: number;
  scriptMaxItems: number;
  /** Longest a single SRS command statement may run (PostgreSQL statement_timeout; see README for SQLite). */
  srsStatementTimeoutSeconds: number;
  /** Most rows one SRS command may return. */
  srsMaxRows: number;
  /** Markdown preview: worker threads that render previews off the event loop. */
  previewWorkers: number;
  /** Previews waiting for a worker beyond which requests are refused with 503 + Retry-After. */
  previewQueueLimit: number;
  /** Longest a single preview may take before its worker is stopped (422 preview_timeout). */
  previewTimeoutSeconds: number;
  /** Heap limit of a preview worker. */
  previewMemoryMb: number;
  /** Longest wait for a new database connection (PostgreSQL), and for a pooled one. */
  databaseConnectTimeoutSeconds: number;
  /** Longest a query of the platform's own may run (PostgreSQL statement_timeout). */
  databaseStatementTimeoutSeconds: number;
  /** How long audit trail rows are kept; older ones are deleted in the background. */
  auditRetentionDays: number;
  /** After SIGTERM: how long in-flight requests may take before the process exits anyway. */
  shutdownGraceSeconds: number;
  /** Settings:MetricsToken: the bearer token of GET /metrics on the public port (unset: no
   *  /metrics there). */
  metricsToken: string | null;
}

export interface Config {
  port: number;
  host: string;
  /** METRICS_PORT: a listener of its own serving GET /metrics without credentials (null: none). */
  metricsPort: number | null;
  metricsHost: string;
  dataDir: string;
  databaseUrl: string | null;
  appsDir: string;
  adminUsername: string | null;
  adminPassword: string | null;
  settingsFile: string | null;
  settings: Settings;
  /** Keys of the settings file or `Settings__*` variables that no setting reads (logged at start). */
  settingWarnings: string[];
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function asNumber(name: string, raw: unknown, def: number, min: number, max: number, integer = true): number {
  if (raw === undefined || raw === null || raw === '') return def;
  const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min || n > max) {
    throw new ConfigError(
      `${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max} (got ${JSON.stringify(raw)})`,
    );
  }
  return n;
}

function asBoolean(name: string, raw: unknown, def: boolean): boolean {
  if (raw === undefined || raw === null || raw === '') return def;
  if (typeof raw === 'boolean') return raw;
  const s = String(raw).trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(s)) return true;
  if (['false', '0', 'no', 'off'].includes(s)) return false;
  throw new ConfigError(`${name} must be true or false (got ${JSON.stringify(raw)})`);
}

function asString(name: string, raw: unknown, def: string): string {
  if (raw === undefined || raw === null) return def;
  if (typeof raw === 'object') throw new ConfigError(`${name} must be a string`);
  return String(raw);
}

/** A list setting: a JSON array, or a string of items separated by commas (or semicolons). */
function listSetting(raw: unknown): string[] {
  if (raw === undefined || raw === null || raw === '') return [];
  return (Array.isArray(raw) ? raw.map(String) : String(raw).split(/[,;]/)).map((o) => o.trim()).filter(Boolean);
}

function asOptionalPath(name: string, raw: unknown, cwd: string): string | null {
  const text = asString(name, raw, '').trim();
  return text === '' ? null : resolve(cwd, text);
}

function asUrl(name: string, raw: unknown): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  const s = String(raw);
  try {
    const u = new URL(s);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL (got ${JSON.stringify(raw)})`);
  }
  return s.replace(/\/+$/, '');
}

/** A metrics token shorter than this is refused at start: it is the only credential of /metrics. */
const MIN_METRICS_TOKEN_LENGTH = 16;

/** Defaults and bounds of the render limits: of the settings, and of the CLI's render flags
 *  (--timeout, --max-memory-mb) that override them. */
export const RENDER_TIMEOUT_SECONDS = { fallback: 60, min: 0.1, max: 3600 } as const;
export const RENDER_MEMORY_MB = { fallback: 512, min: 64, max: 65_536 } as const;

export const RENDER_MAX_PAGES = { fallback: 10_000, min: 1, max: 1_000_000 } as const;

export const SCRIPT_MAX_STEPS = { fallback: 20_000_000, min: 10_000, max: 2_000_000_000 } as const;
export const SCRIPT_MAX_ITEMS = { fallback: 2_000_000, min: 1_000, max: 100_000_000 } as const;

export type RenderLimitSettings = Pick<
  Settings,
  'renderTimeoutSeconds' | 'renderMemoryMb' | 'renderMaxPages' | 'scriptMaxSteps' | 'scriptMaxItems'
>;

function renderLimitSettings(s: (key: string) => unknown): RenderLimitSettings {
  const t = RENDER_TIMEOUT_SECONDS;
  const m = RENDER_MEMORY_MB;
  const p = RENDER_MAX_PAGES;
  return {
    renderTimeoutSeconds: asNumber(
      'Settings:RenderTimeoutSeconds',
      s('RenderTimeoutSeconds'),
      t.fallback,
      t.min,
      t.max,
      false,
    ),
    renderMemoryMb: asNumber('Settings:RenderMemoryMb', s('RenderMemoryMb'), m.fallback, m.min, m.max),
    renderMaxPages: asNumber('Settings:RenderMaxPages', s('RenderMaxPages'), p.fallback, p.min, p.max),
    scriptMaxSteps: asNumber(
      'Settings:ScriptMaxSteps',
      s('ScriptMaxSteps'),
      SCRIPT_MAX_STEPS.fallback,
      SCRIPT_MAX_STEPS.min,
      SCRIPT_MAX_STEPS.max,
    ),
    scriptMaxItems: asNumber(
      'Settings:ScriptMaxItems',
      s('ScriptMaxItems'),
      SCRIPT_MAX_ITEMS.fallback,
      SCRIPT_MAX_ITEMS.min,
      SCRIPT_MAX_ITEMS.max,
    ),
  };
}

/** Only the render limits, for `platform-core render`: it needs nothing else of the
 *  configuration, so an unrelated bad setting (or DATABASE_URL) must not stop it. */
export function loadRenderLimitSettings(
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): RenderLimitSettings {
  const { tree } = readSettingsFile(env, cwd);
  return renderLimitSettings((key) => lookupSetting(tree, env, `Settings:${key}`));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config {
  const { tree, path } = readSettingsFile(env, cwd);
  // The keys read are the known ones: what is in the file and not read is reported.
  const read = new Set<string>();
  const s = (key: string) => {
    read.add(key);
    return lookupSetting(tree, env, `Settings:${key}`);
  };

  const allowedOrigins = listSetting(s('AllowedOrigins'));

  const renderWorkers = asNumber(
    'Settings:RenderWorkers',
    s('RenderWorkers'),
    Math.max(1, availableParallelism() - 1),
    1,
    64,
  );
  const previewWorkers = asNumber(
    'Settings:PreviewWorkers',
    s('PreviewWorkers'),
    Math.max(1, availableParallelism() - 1),
    1,
    64,
  );
  const settings: Settings = {
    jwtExpireHours: asNumber('Settings:JwtExpireHours', s('JwtExpireHours'), 24, 0.01, 24 * 365, false),
    jwtSigningKeyFile: asOptionalPath('Settings:JwtSigningKeyFile', s('JwtSigningKeyFile'), cwd),
    jwtSigningKey: asString('Settings:JwtSigningKey', s('JwtSigningKey'), '').trim() || null,
    bodyLimitBytes: asNumber('Settings:BodyLimitBytes', s('BodyLimitBytes'), 1024 * 1024, 1024, 1024 * 1024 * 1024),
    accessLog: asBoolean('Settings:AccessLog', s('AccessLog'), false),
    slowRequestMs: asNumber('Settings:SlowRequestMs', s('SlowRequestMs'), 1000, 1, 3_600_000),
    ownerName: asString('Settings:OwnerName', s('OwnerName'), 'Platform Core'),
    ownerLanguage: asString('Settings:OwnerLanguage', s('OwnerLanguage'), 'en'),
    publicUrl: asUrl('Settings:PublicUrl', s('PublicUrl')),
    lockoutMaxFailedAttempts: asNumber('Settings:LockoutMaxFailedAttempts', s('LockoutMaxFailedAttempts'), 5, 1, 1000),
    lockoutMinutes: asNumber('Settings:LockoutMinutes', s('LockoutMinutes'), 5, 0.01, 525_600, false),
    loginRateLimitPerUser: asNumber('Settings:LoginRateLimitPerUser', s('LoginRateLimitPerUser'), 30, 1, 1_000_000),
    loginRateLimitPerAddress: asNumber(
      'Settings:LoginRateLimitPerAddress',
      s('LoginRateLimitPerAddress'),
      300,
      1,
      1_000_000,
    ),
    auditRetentionDays: asNumber('Settings:AuditRetentionDays', s('AuditRetentionDays'), 90, 1, 36_500),
    authCacheSeconds: asNumber('Settings:AuthCacheSeconds', s('AuthCacheSeconds'), 30, 0, 60, false),
    allowedOrigins,
    fontDirs: listSetting(s('FontDirs')).map((d) => resolve(cwd, d)),
    trustProxy: asBoolean('Settings:TrustProxy', s('TrustProxy'), false),
    logLevel: asString('Settings:LogLevel', s('LogLevel') ?? env.LOG_LEVEL, 'info'),
    renderWorkers,
    renderQueueLimit: asNumber('Settings:RenderQueueLimit', s('RenderQueueLimit'), 4 * renderWorkers, 0, 10_000),
    renderWarmup: asBoolean('Settings:RenderWarmup', s('RenderWarmup'), true),
    ...renderLimitSettings(s),
    srsStatementTimeoutSeconds: asNumber(
      'Settings:SrsStatementTimeoutSeconds',
      s('SrsStatementTimeoutSeconds'),
      30,
      0.1,
      3600,
      false,
    ),
    srsMaxRows: asNumber('Settings:SrsMaxRows', s('SrsMaxRows'), 100_000, 1, 10_000_000),
    previewWorkers,
    previewQueueLimit: asNumber('Settings:PreviewQueueLimit', s('PreviewQueueLimit'), 4 * previewWorkers, 0, 10_000),
    previewTimeoutSeconds: asNumber('Settings:PreviewTimeoutSeconds', s('PreviewTimeoutSeconds'), 10, 0.01, 600, false),
    previewMemoryMb: asNumber('Settings:PreviewMemoryMb', s('PreviewMemoryMb'), 512, 64, 65_536),
    databaseConnectTimeoutSeconds: asNumber(
      'Settings:DatabaseConnectTimeoutSeconds',
      s('DatabaseConnectTimeoutSeconds'),
      5,
      0.1,
      600,
      false,
    ),
    databaseStatementTimeoutSeconds: asNumber(
      'Settings:DatabaseStatementTimeoutSeconds',
      s('DatabaseStatementTimeoutSeconds'),
      10,
      0.1,
      3600,
      false,
    ),
    shutdownGraceSeconds: asNumber('Settings:ShutdownGraceSeconds', s('ShutdownGraceSeconds'), 10, 0, 3600, false),
    metricsToken: asString('Settings:MetricsToken', s('MetricsToken'), '').trim() || null,
  };
  if (settings.metricsToken !== null && settings.metricsToken.length < MIN_METRICS_TOKEN_LENGTH) {
    throw new ConfigError(
      `Settings:MetricsToken must be at least ${MIN_METRICS_TOKEN_LENGTH} characters (e.g. openssl rand -hex 32)`,
    );
  }
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(settings.logLevel)) {
    throw new ConfigError(
      `Settings:LogLevel must be one of fatal, error, warn, info, debug, trace, silent ` +
        `(got ${JSON.stringify(settings.logLevel)})`,
    );
  }

  const databaseUrl = env.DATABASE_URL && env.DATABASE_URL.trim() !== '' ? env.DATABASE_URL.trim() : null;
  if (databaseUrl && !/^postgres(ql)?:\/\//i.test(databaseUrl) && !/^(sqlite:|file:)/i.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL, or sqlite:<path> (unset: SQLite file in DATA_DIR)');
  }
  const adminUsername = env.PLATFORM_ADMIN_USERNAME?.trim() || null;
  if (adminUsername !== null && adminUsername.toLowerCase() === 'api') {
    throw new ConfigError('PLATFORM_ADMIN_USERNAME: the username "api" is reserved for API-token logins');
  }

  const port = asNumber('PORT', env.PORT, 8080, 0, 65535);
  const host = asString('HOST', env.HOST, '0.0.0.0');
  const metricsPort = env.METRICS_PORT?.trim() ? asNumber('METRICS_PORT', env.METRICS_PORT, 0, 0, 65535) : null;
  if (metricsPort !== null && metricsPort !== 0 && metricsPort === port) {
    throw new ConfigError(
      `METRICS_PORT must differ from PORT (both are ${port}): /metrics is served without credentials there`,
    );
  }
  return {
    port,
    host,
    metricsPort,
    metricsHost: asString('METRICS_HOST', env.METRICS_HOST, host),
    dataDir: resolve(cwd, env.DATA_DIR || 'data'),
    databaseUrl,
    appsDir: env.APPS_DIR ? resolve(cwd, env.APPS_DIR) : resolve(REPO_ROOT, 'apps'),
    adminUsername,
    adminPassword: env.PLATFORM_ADMIN_PASSWORD || null,
    settingsFile: path,
    settings,
    settingWarnings: unknownSettingWarnings(tree, path, env, [...read]),
  };
}
