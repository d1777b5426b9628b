// The report applications of the instance: one folder per app in APPS_DIR.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const APP_NAME_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
const appNameRe = new RegExp(APP_NAME_PATTERN);

/** App names, sorted; re-read on each call so apps can be added while the server runs. */
export function listApps(appsDir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(appsDir);
  } catch {
    return [];
  }
  return entries.filter((name) => appNameRe.test(name) && isDirectory(join(appsDir, name))).sort();
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Apps a holder of these roles may use: `app_<name>` for one, `app_administrator` for all. */
export function appsForRoles(allApps: readonly string[], roles: ReadonlySet<string> | readonly string[]): string[] {
  const has = (r: string) => (roles instanceof Set ? roles.has(r) : (roles as readonly string[]).includes(r));
  if (has('app_administrator')) return [...allApps];
  return allApps.filter((a) => has(`app_${a}`));
}
