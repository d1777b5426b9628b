// docs/configuration.md is generated from the settings table; these tests fail when the committed
// file differs from a fresh generation, and when the table says other than loadConfig does.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_DOC, configurationReference } from '../../scripts/config-reference.js';
import { loadConfig } from '../../src/config/config.js';
import { ENVIRONMENT, SETTINGS, type SettingEntry } from '../../src/config/settings-table.js';

const cwd = mkdtempSync(join(tmpdir(), 'pc-config-reference-'));
const rows = Object.entries(SETTINGS) as [string, SettingEntry][];
const field = (key: string): string => key[0]!.toLowerCase() + key.slice(1);
const settingOf = (env: NodeJS.ProcessEnv, key: string): unknown =>
  (loadConfig(env, cwd).settings as unknown as Record<string, unknown>)[field(key)];

describe('docs/configuration.md', () => {
  it('is what scripts/config-reference.ts writes (run it after changing the settings table)', () => {
    expect(readFileSync(CONFIGURATION_DOC, 'utf8')).toBe(configurationReference());
  });

  it('lists every setting and environment variable of the table', () => {
    const doc = configurationReference();
    for (const [key] of rows) expect(doc).toContain(`| \`Settings:${key}\` |`);
    for (const v of ENVIRONMENT) expect(doc).toContain(`| \`${v.name}\` |`);
  });
});

describe('the settings table', () => {
  it.each(rows.filter(([, e]) => e.fallback !== undefined))('gives the default of Settings:%s', (key, entry) => {
    expect(settingOf({}, key)).toBe(entry.fallback);
  });

  it.each(rows.filter(([, e]) => e.min !== undefined))('gives the bounds of Settings:%s', (key, entry) => {
    const env = (value: number): NodeJS.ProcessEnv => ({ [`Settings__${key}`]: String(value) });
    expect(settingOf(env(entry.min!), key)).toBe(entry.min);
    expect(settingOf(env(entry.max!), key)).toBe(entry.max);
    const below = entry.min! - (entry.kind === 'integer' ? 1 : entry.min! / 2 || 0.5);
    expect(() => loadConfig(env(below), cwd)).toThrow(`Settings:${key}`);
    expect(() => loadConfig(env(entry.max! + 1), cwd)).toThrow(`Settings:${key}`);
    if (entry.kind === 'integer') expect(() => loadConfig(env(entry.min! + 0.5), cwd)).toThrow(`Settings:${key}`);
  });

  it('names every environment variable src/config reads', () => {
    const dir = join(import.meta.dirname, '..', '..', 'src', 'config');
    const read = new Set<string>();
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'settings-table.ts')) {
      for (const m of readFileSync(join(dir, file), 'utf8').matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)) read.add(m[1]!);
    }
    expect([...read].sort()).toEqual(ENVIRONMENT.map((v) => v.name).sort());
  });
});
