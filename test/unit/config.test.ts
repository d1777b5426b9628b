import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

const dir = () => mkdtempSync(join(tmpdir(), 'pc-config-'));

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({}, dir());
    expect(c.port).toBe(8080);
    expect(c.databaseUrl).toBeNull();
    expect(c.settings.jwtExpireHours).toBe(24);
    expect(c.settings.bodyLimitBytes).toBe(1024 * 1024);
    expect(c.settings.accessLog).toBe(false);
    expect(c.settings.lockoutMaxFailedAttempts).toBe(5);
    expect(c.settings.lockoutMinutes).toBe(5);
    expect(c.settings.loginRateLimitPerUser).toBe(30);
    expect(c.settings.loginRateLimitPerAddress).toBe(300);
    expect(c.appsDir.endsWith('apps')).toBe(true);
  });

  it('reads the report script budgets (ScriptMaxSteps, ScriptMaxItems) within their bounds', () => {
    const d = dir();
    expect(loadConfig({}, d).settings.scriptMaxSteps).toBe(20_000_000);
    expect(loadConfig({}, d).settings.scriptMaxItems).toBe(2_000_000);
    const c = loadConfig({ Settings__ScriptMaxSteps: '50000', Settings__ScriptMaxItems: '5000' }, d);
    expect([c.settings.scriptMaxSteps, c.settings.scriptMaxItems]).toEqual([50_000, 5000]);
    expect(() => loadConfig({ Settings__ScriptMaxSteps: '10' }, d)).toThrow(/Settings:ScriptMaxSteps/);
    expect(() => loadConfig({ Settings__ScriptMaxItems: 'lots' }, d)).toThrow(/Settings:ScriptMaxItems/);
  });

  it('reads the font directories (FontDirs): a list, relative paths from the working directory', () => {
    const d = dir();
    expect(loadConfig({}, d).settings.fontDirs).toEqual([]);
    const c = loadConfig({ Settings__FontDirs: 'fonts; /opt/corp-fonts ,' }, d);
    expect(c.settings.fontDirs).toEqual([join(d, 'fonts'), '/opt/corp-fonts']);
    writeFileSync(join(d, 'appsettings.json'), JSON.stringify({ Settings: { FontDirs: ['a', '/b'] } }));
    expect(loadConfig({}, d).settings.fontDirs).toEqual([join(d, 'a'), '/b']);
  });

  it('reads appsettings.json from the working directory, case-insensitively, and env overrides it', () => {
    const d = dir();
    writeFileSync(join(d, 'appsettings.json'), JSON.stringify({ Settings: { jwtexpirehours: 12, OwnerName: 'ACME' } }));
    expect(loadConfig({}, d).settings.jwtExpireHours).toBe(12);
    expect(loadConfig({}, d).settings.ownerName).toBe('ACME');
    expect(loadConfig({ Settings__JwtExpireHours: '48' }, d).settings.jwtExpireHours).toBe(48);
    expect(loadConfig({ SETTINGS__JWTEXPIREHOURS: '6' }, d).settings.jwtExpireHours).toBe(6);
  });

  it('warns of keys no setting reads (file and Settings__ variables), naming the closest known key', () => {
    const d = dir();
    expect(loadConfig({}, d).settingWarnings).toEqual([]);
    const file = join(d, 'appsettings.json');
    writeFileSync(
      file,
      JSON.stringify({
        Settings: { JwtExpireHour: 12, ownername: 'ACME', CompletelyMadeUp: 1, lockoutminute: 3 },
        AccessLog: true,
      }),
    );
    const c = loadConfig({ Settings__AccesLog: 'true', Settings__OwnerLanguage: 'de' }, d);
    // Not an error: the known keys still apply.
    expect([c.settings.ownerName, c.settings.ownerLanguage]).toEqual(['ACME', 'de']);
    expect(c.settingWarnings).toEqual([
      `unknown setting Settings:JwtExpireHour in ${file} is ignored; did you mean Settings:JwtExpireHours?`,
      `unknown setting Settings:CompletelyMadeUp in ${file} is ignored`,
      `unknown setting Settings:lockoutminute in ${file} is ignored; did you mean Settings:LockoutMinutes?`,
      `unknown section "AccessLog" in ${file} is ignored (settings go in the "Settings" section: ` +
        'did you mean Settings:AccessLog?)',
      'unknown setting Settings:AccesLog (environment variable Settings__AccesLog) is ignored; ' +
        'did you mean Settings:AccessLog?',
    ]);
  });

  it('reads CONFIG_FILE and fails clearly when it is missing or broken', () => {
    const d = dir();
    writeFileSync(join(d, 'custom.json'), JSON.stringify({ Settings: { AccessLog: true } }));
    expect(loadConfig({ CONFIG_FILE: 'custom.json' }, d).settings.accessLog).toBe(true);
    expect(() => loadConfig({ CONFIG_FILE: 'missing.json' }, d)).toThrow(/CONFIG_FILE/);
    writeFileSync(join(d, 'broken.json'), '{nope');
    expect(() => loadConfig({ CONFIG_FILE: 'broken.json' }, d)).toThrow(/not valid JSON/);
  });

  it.each([
    [{ Settings__JwtExpireHours: 'abc' }, /Settings:JwtExpireHours/],
    [{ Settings__JwtExpireHours: '-1' }, /Settings:JwtExpireHours/],
    [{ PORT: '99999' }, /PORT/],
    [{ PORT: '80.5' }, /PORT/],
    [{ Settings__AccessLog: 'maybe' }, /Settings:AccessLog/],
    [{ Settings__AuthCacheSeconds: '120' }, /Settings:AuthCacheSeconds/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ Settings__PublicUrl: 'ftp://x' }, /Settings:PublicUrl/],
    [{ Settings__LogLevel: 'loud' }, /Settings:LogLevel/],
    [{ PLATFORM_ADMIN_USERNAME: 'API' }, /PLATFORM_ADMIN_USERNAME/],
  ])('rejects %j naming the setting', (env, pattern) => {
    expect(() => loadConfig(env as NodeJS.ProcessEnv, dir())).toThrow(ConfigError);
    expect(() => loadConfig(env as NodeJS.ProcessEnv, dir())).toThrow(pattern);
  });
});
