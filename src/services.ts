// Wires one instance together: database, auth, domain services. The HTTP app, the CLI and the
// tests all build from here, so they share exactly the same behaviour.
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './db/connect.js';
import { ADMIN_PASSWORD_FILE, bootstrapInstance, type BootstrapResult } from './accounts/bootstrap.js';
import { join } from 'node:path';
import { loadSecretsKey, loadSigningKey } from './auth/signing-key.js';
import { SecretBox } from './auth/secret-box.js';
import { SecondFactorCheck } from './auth/second-factor.js';
import { MfaService } from './auth/mfa-service.js';
import { securePrivateFiles } from './db/file-modes.js';
import { sealedAddon } from './db/sqlite-file.js';
import { JwtCodec } from './auth/jwt.js';
import { Authenticator } from './auth/authenticator.js';
import { startAuthChangeWatch, type AuthChangeWatch } from './auth/auth-change-watch.js';
import { LoginService } from './auth/login-service.js';
import { PasswordAttempts } from './auth/password-attempts.js';
import { argon2Hasher, type PasswordHasher } from './auth/passwords.js';
import { TokenService } from './tokens/token-service.js';
import { ProfileService } from './accounts/profile-service.js';
import { AccountAdminService } from './accounts/account-admin-service.js';
import { TeamService } from './teams/team-service.js';
import { setFontDirs } from './report/index.js';
import { createRenderPool } from './srs/render-pool/index.js';
import { PreviewPool } from './system/preview-pool.js';
import { SrsService } from './srs/srs-service.js';
import { seedApps } from './srs/app-seed.js';
import { loadAppLogin, openAppDatabase, restoreAppLogin } from './srs/app-role.js';
import type { Kysely } from 'kysely';
import { AuditTrail } from './audit/audit-trail.js';
import { findUserId } from './identity/users-repository.js';
import { Metrics } from './metrics/metrics.js';
import { databaseFault } from './db/database-errors.js';
import { ThrottledWarnings } from './lib/throttled-warnings.js';

export interface Services {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  auth: Authenticator;
  login: LoginService;
  tokens: TokenService;
  profiles: ProfileService;
  accounts: AccountAdminService;
  /** Second factors: TOTP, recovery codes, an administrator's reset. */
  mfa: MfaService;
  teams: TeamService;
  srs: SrsService;
  /** The audit trail: read by GET /api/core/audit, pruned past Settings:AuditRetentionDays. */
  audit: AuditTrail;
  /** Markdown/HTML previews on worker threads. */
  previews: PreviewPool;
  /** This instance's Prometheus registry (GET /metrics), recorded into by every layer. */
  metrics: Metrics;
  bootstrap: BootstrapResult;
  close(): Promise<void>;
}

/** Replacements for tests: a hasher that counts verifications. */
/** How many connections report SQL may hold at once on PostgreSQL (apart from the platform's pool). */
const APP_POOL_SIZE = 5;

export interface ServiceOverrides {
  passwordHasher?: PasswordHasher;
}

export async function createServices(
  config: Config,
  logger: Logger,
  overrides: ServiceOverrides = {},
): Promise<Services> {
  const { settings } = config;
  const connectTimeoutMs = settings.databaseConnectTimeoutSeconds * 1000;
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    connectTimeoutMs,
    statementTimeoutMs: settings.databaseStatementTimeoutSeconds * 1000,
  });
  const metrics = new Metrics();
  if (settings.metricsToken !== null || config.metricsPort !== null) metrics.collectProcessMetrics();
  if (database.poolUse) metrics.watchDatabasePool('platform', database.poolUse);
  // biome-ignore lint/suspicious/noExplicitAny: the app schema's tables are the users' own
  let appDb: Kysely<any> | null = null;
  let authWatch: AuthChangeWatch | null = null;
  try {
    const bootstrap = await database.exclusiveStart(async () => {
      await migrateToLatest(database);
      return bootstrapInstance(database.db, {
        dataDir: config.dataDir,
        adminUsername: config.adminUsername,
        adminPassword: config.adminPassword,
        passwordPolicy: { minLength: settings.passwordMinLength },
      });
    });
    const tightened = [...database.tightened, ...securePrivateFiles([join(config.dataDir, ADMIN_PASSWORD_FILE)])];
    for (const t of tightened)
      logger.warn(
        t,
        `tightened the mode of ${t.path} from ${t.from} to ${t.to}: it holds secrets only this service may read`,
      );
    if (database.appsAttachError)
      logger.error(
        { file: database.appDataFile, err: database.appsAttachError },
        `the apps' database file cannot be attached (${database.appsAttachError}): reports run, but the ` +
          'user_cancel hook cannot reach the apps’ data until the object SQLite names is dropped from that file',
      );
    const signingKey = await loadSigningKey(database.db, {
      file: config.settings.jwtSigningKeyFile,
      value: config.settings.jwtSigningKey,
    });
    for (const w of signingKey.warnings) logger.warn(w);
    const jwt = new JwtCodec(signingKey.key, config.settings.jwtExpireHours * 3600);
    const secretsKey = await loadSecretsKey(database.db, { file: settings.secretsKeyFile, value: settings.secretsKey });
    for (const w of secretsKey.warnings) logger.warn(w);
    const secretBox = new SecretBox(secretsKey.key);
    // A background write lost to a database fault is the same back-pressure the requests meet:
    // a warning per cause per interval, not an error line each.
    const backgroundFaults = new ThrottledWarnings(logger);
    const onBackgroundError = (err: unknown) => {
      const fault = databaseFault(err);
      if (fault === null) logger.error({ err }, 'background write failed');
      else backgroundFaults.warn(fault, { fault, code: (err as { code?: unknown }).code }, 'background write failed');
    };
    const auth = new Authenticator(database.db, jwt, config.settings.authCacheSeconds * 1000, onBackgroundError);
    const passwords = new PasswordAttempts(
      database.db,
      overrides.passwordHasher ?? argon2Hasher,
      { maxFailedAttempts: config.settings.lockoutMaxFailedAttempts, lockoutMinutes: config.settings.lockoutMinutes },
      onBackgroundError,
      metrics,
    );
    const lockoutPolicy = {
      maxFailedAttempts: settings.lockoutMaxFailedAttempts,
      lockoutMinutes: settings.lockoutMinutes,
    };
    const secondFactor = new SecondFactorCheck(database.db, secretBox, lockoutPolicy);
    const mfa = new MfaService(database.db, secretBox, secondFactor, settings.ownerName, (id) =>
      auth.invalidateAccount(id),
    );
    const login = new LoginService(
      database.db,
      jwt,
      auth,
      passwords,
      config.settings,
      onBackgroundError,
      secondFactor,
      metrics,
    );
    const tokens = new TokenService(database.db, (ids) => auth.invalidateTokenIds(ids));
    // Set once the SRS service exists; account changes also make the SQLite directory copy stale.
    let directoryChanged = (): void => undefined;
    const invalidate = (userId: string) => {
      auth.invalidateAccount(userId);
      directoryChanged();
    };
    const profiles = new ProfileService(database.db, {
      appsDir: config.appsDir,
      ownerName: settings.ownerName,
      publicUrl: settings.publicUrl,
      invalidate,
    });
    const accounts = new AccountAdminService({
      db: database.db,
      dialect: database.dialect,
      dataDir: config.dataDir,
      appsDir: config.appsDir,
      withApps: database.withApps,
      appsAttachError: database.appsAttachError,
      invalidate,
      passwords,
      passwordPolicy: { minLength: settings.passwordMinLength },
      // The SRS service exists by the time anything is granted.
      aclRoles: () => srs.aclRoles(),
      logger,
    });
    const teams = new TeamService(database.db, invalidate);
    // PostgreSQL: the apps' SQL (seeds, SRS commands) runs on connections of the app role's own.
    if (database.dialect === 'postgresql' && config.databaseUrl) {
      const appLogin = await loadAppLogin(database.db);
      const reports = openAppDatabase(
        config.databaseUrl,
        appLogin,
        { size: APP_POOL_SIZE, connectTimeoutMs, statementTimeoutMs: settings.srsStatementTimeoutSeconds * 1000 },
        async () => {
          logger.warn('the app role’s login was refused: its password is put back (report SQL may change it)');
          await restoreAppLogin(database.db, appLogin);
        },
      );
      appDb = reports.db;
      metrics.watchDatabasePool('reports', reports.use);
    }
    // SQLite: app SQL runs only on the sealed addon; without it the instance does not start
    // (rather than start and fail every report).
    if (database.dialect === 'sqlite') sealedAddon();
    const seedLimit = settings.srsStatementTimeoutSeconds * 1000;
    await seedApps({ ...database, appDb, statementTimeoutMs: seedLimit }, config.appsDir, logger);
    // This thread's font service (the served web fonts); the render workers get them per job.
    setFontDirs(settings.fontDirs);
    const renderPool = createRenderPool({
      size: settings.renderWorkers,
      queueLimit: settings.renderQueueLimit,
      timeoutMs: Math.round(settings.renderTimeoutSeconds * 1000),
      maxMemoryMb: settings.renderMemoryMb,
      maxPages: settings.renderMaxPages,
      scriptLimits: { maxSteps: settings.scriptMaxSteps, maxItems: settings.scriptMaxItems },
      fontDirs: settings.fontDirs,
    });
    metrics.watchRenderPool(() => renderPool.stats());
    const srs = new SrsService({
      db: database.db,
      dialect: database.dialect,
      appDb,
      appDataFile: database.appDataFile,
      directoryMaxAgeMs: settings.authCacheSeconds * 1000,
      appsDir: config.appsDir,
      pool: renderPool,
      limits: { statementTimeoutMs: settings.srsStatementTimeoutSeconds * 1000, maxRows: settings.srsMaxRows },
      logger,
      metrics,
    });
    if (srs.directory) directoryChanged = () => srs.directory?.markChanged();
    // Changes made by other instances or the CLI evict the auth caches within a second.
    authWatch = await startAuthChangeWatch({
      dialect: database.dialect,
      db: database.db,
      databaseUrl: config.databaseUrl,
      connectTimeoutMs: settings.databaseConnectTimeoutSeconds * 1000,
      auth,
      logger,
      onChange: () => directoryChanged(),
    });
    const audit = new AuditTrail({
      db: database.db,
      retentionDays: settings.auditRetentionDays,
      findUserId: (username) => findUserId(database.db, username),
      onError: (err) => logger.error({ err }, 'pruning the audit trail failed'),
    });
    audit.start();
    const previews = new PreviewPool({
      size: settings.previewWorkers,
      queueLimit: settings.previewQueueLimit,
      timeoutMs: Math.max(1, Math.round(settings.previewTimeoutSeconds * 1000)),
      maxMemoryMb: settings.previewMemoryMb,
    });
    return {
      config,
      logger,
      database,
      auth,
      login,
      tokens,
      profiles,
      accounts,
      mfa,
      teams,
      srs,
      audit,
      previews,
      metrics,
      bootstrap,
      async close() {
        await audit.close();
        await authWatch?.close();
        await auth.activity.flush();
        await srs.close();
        await renderPool.close();
        await previews.close();
        await database.close();
        backgroundFaults.flush();
      },
    };
  } catch (err) {
    await authWatch?.close();
    await appDb?.destroy().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw err;
  }
}
