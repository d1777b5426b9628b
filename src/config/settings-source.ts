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
