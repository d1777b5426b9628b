// The data directory holds the instance's secrets: the SQLite database (password hashes, the JWT
// signing key unless it comes from elsewhere), its -wal and -shm files, the initial administrator
// password. Only the service's own user may read them: the directory is 0700 and the files 0600,
// and a looser mode found at start (an older version, a copy, a restored backup) is tightened and
// reported, so any other local user cannot read the key and forge an administrator's JWT.
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';

export interface TightenedMode {
  path: string;
  /** Octal text, e.g. `644`. */
  from: string;
  to: string;
}

const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;
/** POSIX modes mean nothing on Windows (chmod there only toggles read-only). */
const POSIX = process.platform !== 'win32';

const octal = (mode: number): string => (mode & 0o777).toString(8);

function statMode(path: string): number | null {
  try {
    return statSync(path).mode;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The mode of `path` (octal text) when group or others have any access to it; else (or when
 *  it does not exist, or on Windows) null. */
export function openToOthers(path: string): string | null {
  if (!POSIX) return null;
  const current = statMode(path);
  return current === null || (current & 0o077) === 0 ? null : octal(current);
}

/** chmods `path` to `mode` when group or others have any access; what changed, or null. */
function tighten(path: string, mode: number): TightenedMode | null {
  const from = openToOthers(path);
  if (from === null) return null;
  chmodSync(path, mode);
  return { path, from, to: octal(mode) };
}

/** Creates the directory (and missing parents) 0700, or tightens an existing one. */
export function securePrivateDirectory(dir: string): TightenedMode[] {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  const changed = tighten(dir, PRIVATE_DIR);
  return changed ? [changed] : [];
}

/** Tightens those of `paths` that exist and are readable by others to 0600. */
export function securePrivateFiles(paths: readonly string[]): TightenedMode[] {
  return paths.map((p) => tighten(p, PRIVATE_FILE)).filter((c): c is TightenedMode => c !== null);
}

/**
 * Creates `path` empty with mode 0600 when it does not exist, so a program that then opens it
 * (SQLite, which gives its -wal and -shm files the database file's mode) never creates it with
 * the umask's 0644 first.
 */
export function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', PRIVATE_FILE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/** The files SQLite keeps for a database file in WAL mode. */
export const sqliteFiles = (file: string): string[] => [file, `${file}-wal`, `${file}-shm`];
