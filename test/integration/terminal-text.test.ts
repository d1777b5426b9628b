// Stored text on the administrator's terminal: a username typed at a failed login (by anyone,
// without credentials) or a team's name, printed by `platform-core audit`, and what the CLI says
// on stderr, show their control characters as visible escapes. Nothing moves the cursor, clears
// the screen, forges a line or reorders the text after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';
import { killChildren, runCli, said } from '../support/cli-child.js';

/** A forged audit line after a carriage return and newline, ANSI clear-screen and colour, a C1
 *  CSI, DEL, a right-to-left override and a line separator. */
const HOSTILE =
  'mallory\r\n2026-01-01T00:00:00.000000Z  login  root.admin [10.0.0.1 password]\u001b[2J\u001b[H' +
  '\u009b31m\u007f\u202egnp.exe\u2028end';
/** Every character a terminal could act on, raw. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

describe.each(testDatabaseKinds())('stored text on the terminal, %s', (kind) => {
  let db: TestDatabase;
  let inst: Instance;
  let env: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    inst = await startInstance(db);
    env = { DATA_DIR: db.dataDir, ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}) };
  });
  afterAll(async () => {
    killChildren();
    await inst?.stop();
    if (db) await dropTestDatabase(db);
  });

  it('`audit` prints a failed login’s typed username on one line, its controls escaped', async () => {
    expect((await inst.login(HOSTILE, 'whatever-1')).status).toBe(401);
    const r = await runCli(['audit', '--action', 'login_failed', '--limit', '1'], { env });
    expect(r.code, said(r)).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    const lines = r.stdout.split('\n').filter(Boolean);
    // The entry, and the note that there may be more: no forged line in between.
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z {2}login_failed {2}mallory\\r\\n2026-01-01T00/);
    expect(lines[0]).toContain('\\x1b[2J\\x1b[H\\u009b31m\\u007f\\u202egnp.exe\\u2028end [127.0.0.1 password]');
    expect(lines.filter((l) => l.startsWith('2026-01-01'))).toEqual([]);

    // --json: one valid JSON object a line, whose value is the username exactly as typed.
    const json = await runCli(['audit', '--action', 'login_failed', '--limit', '1', '--json'], { env });
    expect(json.code, said(json)).toBe(0);
    expect(json.stdout).not.toMatch(RAW_CONTROL);
    const entries = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(entries).toHaveLength(1);
    expect(entries[0].actor).toBe(HOSTILE);
  });

  it('`audit` escapes the controls inside an entry’s details (JSON.stringify leaves C1 and bidi)', async () => {
    const jwt = await inst.jwtFor(ADMIN.username, ADMIN.password);
    const name = 'Sales\u009b2J\u202eplh\u2066';
    const created = await inst.request('/api/core/team/create', {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}` },
      json: { team_short: 'sales', team_name: name },
    });
    expect(created.status, created.text).toBeLessThan(300);
    const r = await runCli(['audit', '--action', 'team_create', '--limit', '1'], { env });
    expect(r.code, said(r)).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stdout).toContain('"name":"Sales\\u009b2J\\u202eplh\\u2066"');
    const json = await runCli(['audit', '--action', 'team_create', '--limit', '1', '--json'], { env });
    expect(json.stdout).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(json.stdout.trim()).data.name).toBe(name);
  });

  it('what the CLI says on stderr shows the controls of the text it quotes as escapes', async () => {
    const r = await runCli(['role', 'grant', 'ghost\u001b[2J\r\u202e', 'sys_tokens'], { env });
    expect(r.code, said(r)).toBe(2);
    expect(r.stderr).toBe('platform-core: no such user: ghost\\x1b[2J\\r\\u202e\n');
  });
});
