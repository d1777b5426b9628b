// The `platform-core` command.
import { loadConfig, ConfigError, type Config } from '../config/config.js';
import { migrateToLatest, openDatabase } from '../db/connect.js';
import { AppError } from '../lib/errors.js';
import { DatabaseOpenError } from '../db/open-error.js';
import { databaseFault } from '../db/database-errors.js';
import { escapeControlsInLines } from '../lib/visible-text.js';
import { VERSION } from '../lib/version.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_PASSWORD_FILE } from '../accounts/bootstrap.js';
import { serveBanner } from './serve-banner.js';
import { parseArgs, UsageError } from './args.js';
import { describeListenError } from './listen-error.js';
import {
  ensureSystemRoles,
  mfaReset,
  roleChange,
  teamAdd,
  tokenCreate,
  tokenPrune,
  userAdd,
} from './admin-commands.js';

const HELP = `platform-core <command>

  serve                                   start the server (what npm start runs)
  version, --version, -v                  print the version
  migrate                                 apply database migrations
  user add <username> --password-stdin [--role R]… [--team T]…
  role grant|revoke <username> <role>     grants only a system role, app_<name> of an installed
                                          app or a role an app's SRS acl names (the error lists them)
  team add <short> <name> [--type internal|external]
  mfa reset <username>                    removes the account's second factors and recovery codes
                                          and ends its sessions (an administrator who lost them)
  token create <name> --user <username> [--expires-in-days N] [--role R]…
                                          prints the token value once; the token expires after
                                          N days (1–3650; default never) and may use only the
                                          roles R of its owner (default: all of the owner's)
  token prune                             deletes the expired tokens, prints how many
  audit [--user U] [--action A[,B]] [--from T] [--to T] [--limit N] [--json]
                                          the audit trail, newest first (default 50 entries;
                                          T is an ISO 8601 time; --json: one JSON object a line)
  render <template.frx> [--data <file.json|dataset.xml>] [--format html|pdf|frx] [--out <file>|-]
         [--resources <dir>] [--timeout <seconds>] [--max-memory-mb <MB>] [--max-pages <pages>]
                                          renders a FastReport template (warnings on stderr),
                                          stopped after --timeout seconds or at --max-memory-mb
                                          of heap, failing past --max-pages pages (defaults:
                                          Settings:RenderTimeoutSeconds 60, Settings:RenderMemoryMb
                                          512, Settings:RenderMaxPages 10000); the files the
                                          template names (base reports, shapefiles, CSV) are read
                                          only inside its own folder, or inside --resources <dir>
  starter --data <sample.json> [--out <file.frx>|-] [--title <text>]
                                          writes a starter template for an SRS data sample
  backup --out <file>                     a consistent copy of the SQLite databases, also while
                                          the server runs (PostgreSQL: use pg_dump)
  restore <file>                          puts a backup back (the server must be stopped)

Configuration: docs/configuration.md (appsettings.json, Settings__*, PORT, DATA_DIR, DATABASE_URL, APPS_DIR).`;

const BOOLEAN_FLAGS = ['password-stdin', 'help', 'embed-fonts', 'json', 'version'];

async function withDatabase(
  fn: (db: ReturnType<typeof openDatabase>['db'], config: Config) => Promise<void>,
): Promise<void> {
  const config = loadConfig();
  const { settings } = config;
  const handle = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 2,
    connectTimeoutMs: settings.databaseConnectTimeoutSeconds * 1000,
    statementTimeoutMs: settings.databaseStatementTimeoutSeconds * 1000,
  });
  try {
    await handle.exclusiveStart(async () => {
      await migrateToLatest(handle);
      await ensureSystemRoles(handle.db);
    });
    await fn(handle.db, config);
  } finally {
    await handle.close();
  }
}

/** `serve`: the server, then the banner for whoever started it (src/cli/serve-banner.ts). */
async function serve(): Promise<void> {
  const config = loadConfig();
  // Loaded only here: the HTTP stack is not needed by the other commands, which start faster.
  const { listen } = await (await import('../server.js')).startServer(config, { handleSignals: true });
  const passwordFile = join(config.dataDir, ADMIN_PASSWORD_FILE);
  const banner = serveBanner({
    version: VERSION,
    listen,
    adminPasswordFile: existsSync(passwordFile) ? passwordFile : null,
  });
  process.stderr.write(escapeControlsInLines(banner));
}

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv, BOOLEAN_FLAGS);
  const [command, sub] = args.positional;
  // Messages quote stored text (usernames, role names read from apps, paths): written to a
  // terminal, its control characters are shown as escapes, never acted on.
  const out = (s: string): void => void process.stdout.write(`${escapeControlsInLines(s)}\n`);
  const warn = (s: string): void => void process.stderr.write(`${escapeControlsInLines(s)}\n`);
  if (args.flags.has('help') || command === 'help') {
    out(HELP);
    return 0;
  }
  // `-v` alone: the parser takes single-dash words as positional.
  if (args.flags.has('version') || command === 'version' || (command === '-v' && args.positional.length === 1)) {
    out(`platform-core ${VERSION}`);
    return 0;
  }
  if (!command) {
    // No command at all is a usage error: help on stderr, exit 2 (like an unknown command).
    throw new UsageError(`no command given\n\n${HELP}`);
  }
  if (command === 'render') {
    // Loaded only here, like the server: the report library is not needed by the other commands.
    return (await import('./render-command.js')).renderCommand(args, warn);
  }
  if (command === 'starter') {
    return (await import('./starter-command.js')).starterCommand(args, warn);
  }
  if (command === 'backup' || command === 'restore') {
    const { backupCommand, restoreCommand } = await import('./backup-command.js');
    return (command === 'backup' ? backupCommand : restoreCommand)(args, out);
  }
  switch (`${command}${sub ? ` ${sub}` : ''}`) {
    case 'serve':
      await serve();
      return -1; // keeps running
    case 'migrate':
      await withDatabase(async () => out('database is up to date'));
      return 0;
    case 'user add':
      await withDatabase((db, config) =>
        userAdd(db, args, out, config.appsDir, { minLength: config.settings.passwordMinLength }),
      );
      return 0;
    case 'role grant':
    case 'role revoke':
      await withDatabase((db, config) => roleChange(db, args, out, config.appsDir));
      return 0;
    case 'team add':
      await withDatabase((db) => teamAdd(db, args, out));
      return 0;
    case 'token create':
      await withDatabase((db) => tokenCreate(db, args, out));
      return 0;
    case 'audit': {
      const { auditCommand } = await import('./audit-command.js');
      await withDatabase((db) => auditCommand(db, args, out));
      return 0;
    }
    case 'mfa reset':
      await withDatabase((db) => mfaReset(db, args, out));
      return 0;
    case 'token prune':
      await withDatabase((db) => tokenPrune(db, args, out));
      return 0;
    default:
      throw new UsageError(`unknown command: ${args.positional.join(' ')}\n\n${HELP}`);
  }
}

/** A failure's message on stderr, its control characters escaped like every other output. */
const fail = (message: string): void => void process.stderr.write(`platform-core: ${escapeControlsInLines(message)}\n`);

export function run(): void {
  main(process.argv.slice(2)).then(
    (code) => {
      if (code >= 0) process.exitCode = code;
    },
    (err: unknown) => {
      if (err instanceof UsageError || err instanceof ConfigError || err instanceof AppError) {
        fail(err.message);
        process.exitCode = 2;
      } else if (describeListenError(err) !== null) {
        fail(describeListenError(err) ?? '');
        process.exitCode = 1;
      } else if (err instanceof DatabaseOpenError || databaseFault(err)) {
        // Storage that cannot be opened is the administrator's to fix: the cause, no stack.
        fail((err as Error).message);
        process.exitCode = 1;
      } else {
        fail((err as Error)?.stack ?? String(err));
        process.exitCode = 1;
      }
    },
  );
}
