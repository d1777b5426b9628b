// The typed configuration of one instance. Every value is validated here so that a bad setting
// stops the start with a message naming it, instead of failing later at first use.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { ConfigError, lookupSetting, readSettingsFile, unknownSettingWarnings } from './settings-source.js';
import { SETTINGS, type SettingEntry, type SettingKey } from './settings-table.js';

export { ConfigError } from './settings-source.js';

export interface Settings {
  jwtExpireHours: number;
  /** A file holding the JWT signing key (base64), instead of the key kept in the database. */
  jwtSigningKeyFile: string | null;
  /** The JWT signing key itself (base64), for the environment (Settings__JwtSigningKey). */
  jwtSigningKey: string | null;
  /** The key that encrypts secrets kept in the database (TOTP secrets): a file, or the value. */
  secretsKeyFile: string | null;
  secretsKey: string | null;
  bodyLimitBytes: number;
  accessLog: boolean;
  slowRequestMs: number;
  ownerName: string;
  ownerLanguage: string;
  publicUrl: string | null;
  lockoutMaxFailedAttempts: number;
  lockoutMinutes: number;
  /** The fewest characters a new password may have (password-policy.ts has the other rules). */
  passwordMinLength: number;
  /** How recently a session must have passed its second factor for the actions that ask for it. */
  mfaFreshMinutes: number;
  /** Holders of these roles must have a second factor (enrolment is all a password session of one without may do). */
  mfaRequiredRoles: string[];
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
  /** Longest a single SRS command statement may run (PostgreSQL statement_timeout; see docs/reports.md for SQLite). */
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

export {
  RENDER_MAX_PAGES,
  RENDER_MEMORY_MB,
  RENDER_TIMEOUT_SECONDS,
  SCRIPT_MAX_ITEMS,
  SCRIPT_MAX_STEPS,
} from './settings-table.js';

type NumericKey = {
  [K in SettingKey]: (typeof SETTINGS)[K]['kind'] extends 'integer' | 'number' ? K : never;
}[SettingKey];

/** A numeric setting, validated by its row of the settings table; `computed` is the default of a row
 *  whose default depends on the machine or on another setting. */
function numberSetting(s: (key: SettingKey) => unknown, key: NumericKey, computed?: number): number {
  const row: SettingEntry = SETTINGS[key];
  const fallback = computed ?? (row.fallback as number);
  return asNumber(`Settings:${key}`, s(key), fallback, row.min!, row.max!, row.kind === 'integer');
}

function booleanSetting(s: (key: SettingKey) => unknown, key: 'AccessLog' | 'TrustProxy' | 'RenderWarmup'): boolean {
  return asBoolean(`Settings:${key}`, s(key), SETTINGS[key].fallback);
}

export type RenderLimitSettings = Pick<
  Settings,
  'renderTimeoutSeconds' | 'renderMemoryMb' | 'renderMaxPages' | 'scriptMaxSteps' | 'scriptMaxItems'
>;

function renderLimitSettings(s: (key: SettingKey) => unknown): RenderLimitSettings {
  return {
    renderTimeoutSeconds: numberSetting(s, 'RenderTimeoutSeconds'),
    renderMemoryMb: numberSetting(s, 'RenderMemoryMb'),
    renderMaxPages: numberSetting(s, 'RenderMaxPages'),
    scriptMaxSteps: numberSetting(s, 'ScriptMaxSteps'),
    scriptMaxItems: numberSetting(s, 'ScriptMaxItems'),
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
  const s = (key: SettingKey) => {
    read.add(key);
    return lookupSetting(tree, env, `Settings:${key}`);
  };

  const allowedOrigins = listSetting(s('AllowedOrigins'));
  const defaultWorkers = Math.max(1, availableParallelism() - 1);
  const renderWorkers = numberSetting(s, 'RenderWorkers', defaultWorkers);
  const previewWorkers = numberSetting(s, 'PreviewWorkers', defaultWorkers);
  const text = (key: 'OwnerName' | 'OwnerLanguage'): string =>
    asString(`Settings:${key}`, s(key), SETTINGS[key].fallback);
  const settings: Settings = {
    jwtExpireHours: numberSetting(s, 'JwtExpireHours'),
    jwtSigningKeyFile: asOptionalPath('Settings:JwtSigningKeyFile', s('JwtSigningKeyFile'), cwd),
    jwtSigningKey: asString('Settings:JwtSigningKey', s('JwtSigningKey'), '').trim() || null,
    secretsKeyFile: asOptionalPath('Settings:SecretsKeyFile', s('SecretsKeyFile'), cwd),
    secretsKey: asString('Settings:SecretsKey', s('SecretsKey'), '').trim() || null,
    bodyLimitBytes: numberSetting(s, 'BodyLimitBytes'),
    accessLog: booleanSetting(s, 'AccessLog'),
    slowRequestMs: numberSetting(s, 'SlowRequestMs'),
    ownerName: text('OwnerName'),
    ownerLanguage: text('OwnerLanguage'),
    publicUrl: asUrl('Settings:PublicUrl', s('PublicUrl')),
    lockoutMaxFailedAttempts: numberSetting(s, 'LockoutMaxFailedAttempts'),
    lockoutMinutes: numberSetting(s, 'LockoutMinutes'),
    passwordMinLength: numberSetting(s, 'PasswordMinLength'),
    mfaFreshMinutes: numberSetting(s, 'MfaFreshMinutes'),
    mfaRequiredRoles: listSetting(s('MfaRequiredRoles')),
    loginRateLimitPerUser: numberSetting(s, 'LoginRateLimitPerUser'),
    loginRateLimitPerAddress: numberSetting(s, 'LoginRateLimitPerAddress'),
    auditRetentionDays: numberSetting(s, 'AuditRetentionDays'),
    authCacheSeconds: numberSetting(s, 'AuthCacheSeconds'),
    allowedOrigins,
    fontDirs: listSetting(s('FontDirs')).map((d) => resolve(cwd, d)),
    trustProxy: booleanSetting(s, 'TrustProxy'),
    logLevel: asString('Settings:LogLevel', s('LogLevel') ?? env.LOG_LEVEL, SETTINGS.LogLevel.fallback),
    renderWorkers,
    renderQueueLimit: numberSetting(s, 'RenderQueueLimit', 4 * renderWorkers),
    renderWarmup: booleanSetting(s, 'RenderWarmup'),
    ...renderLimitSettings(s),
    srsStatementTimeoutSeconds: numberSetting(s, 'SrsStatementTimeoutSeconds'),
    srsMaxRows: numberSetting(s, 'SrsMaxRows'),
    previewWorkers,
    previewQueueLimit: numberSetting(s, 'PreviewQueueLimit', 4 * previewWorkers),
    previewTimeoutSeconds: numberSetting(s, 'PreviewTimeoutSeconds'),
    previewMemoryMb: numberSetting(s, 'PreviewMemoryMb'),
    databaseConnectTimeoutSeconds: numberSetting(s, 'DatabaseConnectTimeoutSeconds'),
    databaseStatementTimeoutSeconds: numberSetting(s, 'DatabaseStatementTimeoutSeconds'),
    shutdownGraceSeconds: numberSetting(s, 'ShutdownGraceSeconds'),
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
