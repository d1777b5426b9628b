// `platform-core backup --out FILE` and `platform-core restore FILE` (docs/operations.md, Backup and restore).
//
// A backup is a ustar archive (tar-archive.ts) of three entries, in this order:
//   manifest.json            {format, format_version, platform_core_version, created_at, migrations,
//                             files: [{name, role, size, sha256, snapshot_at}]}
//   platform-core.sqlite     the platform's database (role "platform"), a VACUUM INTO snapshot
//   platform-core-apps.sqlite  the apps' data (role "apps"), likewise
// The SQLite work (snapshots, checks, the sole-use lock, the rename) is src/db/sqlite-backup.ts.
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  mkdtempSync,
  openSync,
  readSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { loadConfig, type Config } from '../config/config.js';
import { appDataFileFor } from '../db/app-data.js';
import { securePrivateDirectory, PRIVATE_FILE } from '../db/file-modes.js';
import { DatabaseOpenError } from '../db/open-error.js';
import {
  checkBackupDatabase,
  fsyncPath,
  installDatabaseFile,
  judgeSchema,
  snapshotSqliteFile,
  takeSoleUse,
  type SoleUse,
} from '../db/sqlite-backup.js';
import { sqliteFileFor } from '../db/storage-preflight.js';
import { VERSION } from '../lib/version.js';
import { one, UsageError, type ParsedArgs } from './args.js';
import { readTarEntries, TAR_END, TarFormatError, tarHeader, tarPadding } from './tar-archive.js';

const FORMAT = 'platform-core-backup';
const FORMAT_VERSION = 1;
const MANIFEST = 'manifest.json';
const CHUNK = 1024 * 1024;

type Role = 'platform' | 'apps';

interface ManifestFile {
  name: string;
  role: Role;
  size: number;
  sha256: string;
  snapshot_at: string;
}

interface Manifest {
  format: string;
  format_version: number;
  platform_core_version: string;
  created_at: string;
  migrations: string[];
  files: ManifestFile[];
}

/** The instance's two SQLite files; on PostgreSQL a usage error that names the tool to use. */
function sqliteFiles(config: Config, command: 'backup' | 'restore'): Record<Role, string> {
  if (config.databaseUrl && /^postgres(ql)?:\/\//i.test(config.databaseUrl)) {
    const u = new URL(config.databaseUrl);
    const tool =
      command === 'backup'
        ? 'back it up with pg_dump: pg_dump --format=custom --file=platform-core.dump "$DATABASE_URL"'
        : 'restore a pg_dump backup with pg_restore: pg_restore --clean --if-exists --no-owner ' +
          '--dbname="$DATABASE_URL" platform-core.dump';
    throw new UsageError(
      `${command} copies the SQLite files of an instance; this one uses PostgreSQL ` +
        `(postgresql://${u.host}${u.pathname}): ` +
        `${tool} (docs/operations.md: Backup and restore)`,
    );
  }
  const platform = sqliteFileFor(config.databaseUrl, config.dataDir);
  return { platform, apps: appDataFileFor(platform) };
}

/** Copies `length` bytes from `from` (at `fromOffset`) to `to`, returning their SHA-256. */
function copyBytes(from: number, fromOffset: number, length: number, to: number): string {
  const hash = createHash('sha256');
  const buffer = Buffer.alloc(CHUNK);
  let done = 0;
  while (done < length) {
    const n = readSync(from, buffer, 0, Math.min(CHUNK, length - done), fromOffset + done);
    if (n === 0) throw new Error('unexpected end of file');
    hash.update(buffer.subarray(0, n));
    writeSync(to, buffer, 0, n);
    done += n;
  }
  return hash.digest('hex');
}

function sha256Of(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const hash = createHash('sha256');
    const buffer = Buffer.alloc(CHUNK);
    for (let n: number; (n = readSync(fd, buffer, 0, CHUNK, null)) > 0; ) hash.update(buffer.subarray(0, n));
    return hash.digest('hex');
  } finally {
    closeSync(fd);
  }
}

export async function backupCommand(args: ParsedArgs, out: (s: string) => void): Promise<number> {
  const outArg = one(args, 'out');
  if (!outArg) throw new UsageError('usage: platform-core backup --out <file>');
  const sources = sqliteFiles(loadConfig(), 'backup');
  for (const file of Object.values(sources)) {
    if (!existsSync(file) || statSync(file).size === 0)
      throw new DatabaseOpenError(`there is no database to back up at ${file} (DATA_DIR, DATABASE_URL)`);
  }
  const target = resolve(outArg);
  if (existsSync(target) && !statSync(target).isFile()) throw new UsageError(`--out ${target} is not a file`);
  // Beside the target, so that the finished archive is renamed into place (never half written).
  let work: string;
  try {
    work = mkdtempSync(join(dirname(target), '.platform-core-backup-'));
  } catch (err) {
    throw new UsageError(`cannot write beside --out ${target} (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
  try {
    const files: ManifestFile[] = [];
    const paths: string[] = [];
    for (const role of ['platform', 'apps'] as const) {
      const path = join(work, basename(sources[role]));
      const { takenAt } = snapshotSqliteFile(sources[role], path);
      const snapshotAt = takenAt.toISOString();
      files.push({
        name: basename(path),
        role,
        size: statSync(path).size,
        sha256: sha256Of(path),
        snapshot_at: snapshotAt,
      });
      paths.push(path);
    }
    // A backup that restore would refuse as damaged is no backup: check it the same way now.
    // (Also of a newer schema than this version knows: its restore needs that version.)
    const migrations = checkBackupDatabase(paths[0]!, true, false) ?? [];
    checkBackupDatabase(paths[1]!, false);
    const createdAt = new Date();
    const manifest: Manifest = {
      format: FORMAT,
      format_version: FORMAT_VERSION,
      platform_core_version: VERSION,
      created_at: createdAt.toISOString(),
      migrations,
      files,
    };
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
    const archive = join(work, 'backup.tar');
    const fd = openSync(archive, 'wx', PRIVATE_FILE);
    try {
      writeSync(fd, tarHeader(MANIFEST, manifestBytes.length, createdAt));
      writeSync(fd, manifestBytes);
      writeSync(fd, tarPadding(manifestBytes.length));
      files.forEach((f, i) => {
        writeSync(fd, tarHeader(f.name, f.size, new Date(f.snapshot_at)));
        const src = openSync(paths[i]!, 'r');
        try {
          if (copyBytes(src, 0, f.size, fd) !== f.sha256) throw new Error(`${f.name} changed while archived`);
        } finally {
          closeSync(src);
        }
        writeSync(fd, tarPadding(f.size));
      });
      writeSync(fd, TAR_END);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(archive, target);
    fsyncPath(dirname(target));
    out(
      `backup written to ${target} (${statSync(target).size} bytes): ` +
        files.map((f) => `${f.name} as of ${f.snapshot_at}`).join(', ') +
        `; schema ${migrations.at(-1)}`,
    );
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** `dir` and those of its ancestors that do not exist yet, deepest first. */
function missingDirectories(dir: string): string[] {
  const missing: string[] = [];
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) {
    missing.push(d);
    if (dirname(d) === d) break;
  }
  return missing;
}

/** Removes the directories a refused restore created, deepest first, while they are empty: a
 *  refusal says nothing was changed, and an empty data directory left behind is a change. */
function removeCreatedDirectories(created: readonly string[]): void {
  for (const dir of created) {
    try {
      rmdirSync(dir);
    } catch {
      return; // not empty (something else put a file there) or already gone: leave the rest
    }
  }
}

/** Reads and checks the manifest; what is wrong is a usage error naming the file. */
function readManifest(fd: number, size: number, file: string): { manifest: Manifest; offsets: Map<string, number> } {
  const refuse = (why: string): never => {
    throw new UsageError(`${file} is not a Platform Core backup (${why}); nothing was changed`);
  };
  let entries: ReturnType<typeof readTarEntries> = [];
  try {
    entries = readTarEntries(fd, size);
  } catch (err) {
    if (err instanceof TarFormatError) refuse(err.message);
    throw err;
  }
  const first = entries[0];
  if (!first || first.name !== MANIFEST) return refuse(`no ${MANIFEST} first in the archive`);
  if (first.size > 1024 * 1024) return refuse(`${MANIFEST} too large`);
  const bytes = Buffer.alloc(first.size);
  readSync(fd, bytes, 0, first.size, first.offset);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(bytes.toString('utf8')) as Manifest;
  } catch {
    return refuse(`${MANIFEST} is not JSON`);
  }
  if (manifest?.format !== FORMAT) return refuse(`${MANIFEST} is not of the format ${FORMAT}`);
  if (!(manifest.format_version <= FORMAT_VERSION)) {
    throw new UsageError(
      `${file} is a backup of format ${manifest.format_version} (Platform Core ${manifest.platform_core_version}); ` +
        `this version reads format ${FORMAT_VERSION}: restore it with that version or a later one`,
    );
  }
  const offsets = new Map<string, number>();
  for (const role of ['platform', 'apps'] as const) {
    const listed = manifest.files?.filter((f) => f.role === role) ?? [];
    const entry = entries.find((e) => e.name === listed[0]?.name);
    if (listed.length !== 1 || !entry || entry.size !== listed[0]!.size) return refuse(`no ${role} database`);
    offsets.set(role, entry.offset);
  }
  return { manifest, offsets };
}

export async function restoreCommand(args: ParsedArgs, out: (s: string) => void): Promise<number> {
  const fileArg = args.positional[1];
  if (!fileArg || args.positional.length > 2) throw new UsageError('usage: platform-core restore <backup file>');
  const config = loadConfig();
  const targets = sqliteFiles(config, 'restore');
  const file = resolve(fileArg);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    throw new UsageError(`cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
  const written: string[] = [];
  const held: SoleUse[] = [];
  // Sorted deepest first: DATA_DIR may be inside the platform file's directory or around it.
  const created = [
    ...new Set([...missingDirectories(config.dataDir), ...missingDirectories(dirname(targets.platform))]),
  ].sort((a, b) => b.length - a.length);
  let restored = false;
  try {
    const { manifest, offsets } = readManifest(fd, fstatSync(fd).size, file);
    securePrivateDirectory(config.dataDir);
    securePrivateDirectory(dirname(targets.platform));
    // Each database is written beside its target, fsynced and checked before anything is replaced.
    const replacements = {} as Record<Role, string>;
    let applied: string[] = [];
    for (const role of ['platform', 'apps'] as const) {
      const listed = manifest.files.find((f) => f.role === role)!;
      const path = `${targets[role]}.restore-${process.pid}`;
      rmSync(path, { force: true });
      const to = openSync(path, 'wx', PRIVATE_FILE);
      written.push(path);
      try {
        if (copyBytes(fd, offsets.get(role)!, listed.size, to) !== listed.sha256)
          throw new UsageError(`${file} is damaged: ${listed.name} does not match its SHA-256; nothing was changed`);
        fsyncSync(to);
      } finally {
        closeSync(to);
      }
      try {
        applied = checkBackupDatabase(path, role === 'platform') ?? applied;
      } catch (err) {
        throw new UsageError(`cannot restore ${file}: its ${role} database ${listed.name}: ${(err as Error).message}`);
      }
      replacements[role] = path;
    }
    // Nothing may have either file open while it is replaced (this throws when something does).
    for (const role of ['platform', 'apps'] as const) {
      if (existsSync(targets[role]) && statSync(targets[role]).size > 0) held.push(takeSoleUse(targets[role]));
    }
    installDatabaseFile(replacements.apps, targets.apps);
    installDatabaseFile(replacements.platform, targets.platform);
    const verdict = judgeSchema(applied);
    const pending =
      verdict.ok && verdict.pending.length > 0
        ? `; migrations to apply at the next start: ${verdict.pending.join(', ')}`
        : '';
    out(`restored ${targets.platform} and ${targets.apps} from the backup of ${manifest.created_at}${pending}`);
    restored = true;
    return 0;
  } finally {
    for (const h of held) h.release();
    for (const path of written) rmSync(path, { force: true });
    closeSync(fd);
    if (!restored) removeCreatedDirectories(created);
  }
}
