// Reads an appsettings.json-style file and overlays environment variables written with `__`
// as the section separator (`Settings__JwtExpireHours=48`), like .NET's configuration system.
// Keys are matched case-insensitively, as .NET does.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export type SettingsTree = { [key: string]: string | number | boolean | null | SettingsTree | unknown[] };

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function readSettingsFile(env: NodeJS.ProcessEnv, cwd: string): { tree: SettingsTree; path: string | null } {
  const explicit = env.CONFIG_FILE;
  const path = explicit ? resolve(cwd, explicit) : resolve(cwd, 'appsettings.json');
  if (!existsSync(path)) {
    if (explicit) throw new ConfigError(`CONFIG_FILE: file not found: ${path}`);
    return { tree: {}, path: null };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(`CONFIG_FILE: ${path} is not valid JSON (${(err as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`CONFIG_FILE: ${path} must hold a JSON object`);
  }
  return { tree: parsed as SettingsTree, path };
}

/** Looks up `Section:Key` in the file tree, then in the environment (`Section__Key`), env winning. */
export function lookupSetting(tree: SettingsTree, env: NodeJS.ProcessEnv, path: string): unknown {
  const envKey = path.replace(/:/g, '__').toLowerCase();
  for (const [k, v] of Object.entries(env)) {
    if (k.toLowerCase() === envKey && v !== undefined) return v;
  }
  let node: unknown = tree;
  for (const part of path.split(':')) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    const match = Object.keys(node).find((k) => k.toLowerCase() === part.toLowerCase());
    if (match === undefined) return undefined;
    node = (node as Record<string, unknown>)[match];
  }
  return node;
}

/** Edit distance (insertions, deletions, substitutions), case-insensitive, for suggestions. */
function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[y.length]!;
}

/** The known key nearest to `key`, when it is near enough to be a typo of it. */
export function closestKey(key: string, known: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const k of known) {
    const d = editDistance(key, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : null;
}

/**
 * Warnings for keys of the `Settings` section (in the file or as `Settings__<Key>` variables)
 * that are not among `known` (the keys the configuration read), and for the file's sections
 * other than `Settings`: a misspelt key would otherwise be ignored without a word.
 */
export function unknownSettingWarnings(
  tree: SettingsTree,
  path: string | null,
  env: NodeJS.ProcessEnv,
  known: readonly string[],
): string[] {
  const knownLower = new Set(known.map((k) => k.toLowerCase()));
  const warnings: string[] = [];
  const unknown = (key: string, where: string): void => {
    if (knownLower.has(key.toLowerCase())) return;
    const near = closestKey(key, known);
    warnings.push(
      `unknown setting Settings:${key} ${where} is ignored` + (near ? `; did you mean Settings:${near}?` : ''),
    );
  };
  for (const [top, value] of Object.entries(tree)) {
    if (top.toLowerCase() !== 'settings') {
      const near = closestKey(top, known);
      warnings.push(
        `unknown section "${top}" in ${path} is ignored (settings go in the "Settings" section` +
          (near ? `: did you mean Settings:${near}?)` : ')'),
      );
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    for (const key of Object.keys(value)) unknown(key, `in ${path}`);
  }
  for (const name of Object.keys(env)) {
    const m = /^settings__(.+)$/i.exec(name);
    if (m) unknown(m[1]!, `(environment variable ${name})`);
  }
  return warnings;
}
