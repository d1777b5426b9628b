// Secrets at rest: the data directory 0700 and the SQLite files 0600, looser
// modes tightened at start; the signing key from a file instead of the database; JWTs that live
// longer than Settings:JwtExpireHours or start in the future refused despite a valid signature.
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';
import { loadSigningKey } from '../../src/auth/signing-key.js';
import { stampTag } from '../../src/auth/jwt.js';

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
const SQLITE = 'platform-core.sqlite';
const POSIX = process.platform !== 'win32';

describe.runIf(POSIX)('file modes of the data directory', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'platform-core-modes-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('a fresh data directory is created 0700 and the SQLite file, -wal and -shm 0600', async () => {
    const db: TestDatabase = { kind: 'sqlite', databaseUrl: undefined, dataDir: join(root, 'fresh', 'data') };
    const inst = await startInstance(db);
    try {
      expect((await inst.login(ADMIN.username, ADMIN.password)).status).toBe(200);
      expect(mode(db.dataDir)).toBe('700');
      for (const f of [SQLITE, `${SQLITE}-wal`, `${SQLITE}-shm`]) expect(mode(join(db.dataDir, f)), f).toBe('600');
    } finally {
      await inst.stop();
    }
  });

  it('an existing data directory with looser modes is tightened at start, and each change is logged', async () => {
    const db: TestDatabase = { kind: 'sqlite', databaseUrl: undefined, dataDir: join(root, 'existing') };
    await (await startInstance(db, {}, {})).stop();
    writeFileSync(join(db.dataDir, 'initial-admin-password'), 'not a real one\n');
    const loose = [SQLITE, `${SQLITE}-wal`, `${SQLITE}-shm`, 'initial-admin-password'].map((f) => join(db.dataDir, f));
    chmodSync(db.dataDir, 0o755);
    for (const f of loose) {
      try {
        chmodSync(f, 0o644);
      } catch {
        // -wal and -shm are removed when the last connection closes cleanly.
      }
    }
    const inst = await startInstance(db);
    try {
      expect(mode(db.dataDir)).toBe('700');
      for (const f of loose) expect(mode(f), f).toBe('600');
      const logged = inst
        .logs()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .filter((l) => /^tightened the mode of/.test(l.msg));
      expect(logged.map((l) => l.path)).toEqual(
        expect.arrayContaining([db.dataDir, join(db.dataDir, SQLITE), join(db.dataDir, 'initial-admin-password')]),
      );
      for (const l of logged) expect(l.to).toMatch(/^(600|700)$/);
    } finally {
      await inst.stop();
    }
  });
});

describe.each(testDatabaseKinds())('JWT lifetime and the signing key on %s', (kind) => {
  let db: TestDatabase;
  let inst: Instance;
  let claims: Record<string, unknown>;
  let key: Uint8Array;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    inst = await startInstance(db, { Settings__JwtExpireHours: '24' });
    const jwt = await inst.jwtFor(ADMIN.username, ADMIN.password);
    claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));
    key = (await loadSigningKey(inst.services.database.db, { file: null, value: null })).key;
  });
  afterAll(async () => {
    await inst?.stop();
    if (db) await dropTestDatabase(db);
  });

  const sign = (iat: number, exp: number, k: Uint8Array = key) =>
    new SignJWT({ ...claims, iat, exp }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(k);
  const now = () => Math.floor(Date.now() / 1000);
  const profile = (jwt: string) =>
    inst.request('/api/core/account/profile', { headers: { Authorization: `Bearer ${jwt}` } });

  it(
    'a JWT signed with the right key is refused when it lives longer than JwtExpireHours or starts in the ' + 'future',
    async () => {
      // The control: the same claims over the configured lifetime pass.
      expect((await profile(await sign(now(), now() + 24 * 3600))).status).toBe(200);
      const tenYears = await profile(await sign(now(), now() + 10 * 365 * 24 * 3600));
      expect(tenYears.status).toBe(401);
      expect(tenYears.body.data.code).toBe('invalid_token');
      const justOver = await profile(await sign(now(), now() + 24 * 3600 + 2));
      expect(justOver.status).toBe(401);
      const future = await profile(await sign(now() + 3600, now() + 7200));
      expect(future.status).toBe(401);
      expect(future.body.data.code).toBe('invalid_token');
      // A little clock skew between instances is tolerated.
      expect((await profile(await sign(now() + 20, now() + 3600))).status).toBe(200);
      // Without iat the lifetime cannot be checked: refused.
      const noIat = await new SignJWT({ ...claims, iat: undefined, exp: now() + 60 })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(key);
      expect((await profile(noIat)).status).toBe(401);
    },
  );

  it(
    'with Settings:JwtSigningKeyFile the key comes from the ' + 'file: the database key no longer signs sessions',
    async () => {
      const fileKey = randomBytes(32);
      const keyFile = join(db.dataDir, 'jwt.key');
      writeFileSync(keyFile, `${fileKey.toString('base64')}\n`, { mode: 0o600 });
      const fromFile = await startInstance(db, { Settings__JwtSigningKeyFile: keyFile });
      try {
        const jwt = await fromFile.jwtFor(ADMIN.username, ADMIN.password);
        expect(
          (await fromFile.request('/api/core/account/profile', { headers: { Authorization: `Bearer ${jwt}` } })).status,
        ).toBe(200);
        // Signed with the file's key, not the database's: the other instance refuses it…
        expect((await profile(jwt)).status).toBe(401);
        // …and a JWT made with the database's key is refused by the instance using the file.
        const dbSigned = await sign(now(), now() + 3600);
        expect(
          (await fromFile.request('/api/core/account/profile', { headers: { Authorization: `Bearer ${dbSigned}` } }))
            .status,
        ).toBe(401);
        const forged = await sign(now(), now() + 3600, new Uint8Array(fileKey));
        expect(
          (await fromFile.request('/api/core/account/profile', { headers: { Authorization: `Bearer ${forged}` } }))
            .status,
        ).toBe(200);
        expect(fromFile.logs()).not.toMatch(/can be read by other users/);
      } finally {
        await fromFile.stop();
      }
    },
  );

  it.runIf(POSIX)('a key file others can read is used, with a warning naming its mode', async () => {
    const keyFile = join(db.dataDir, 'open.key');
    writeFileSync(keyFile, randomBytes(32).toString('base64'));
    chmodSync(keyFile, 0o644);
    const inst2 = await startInstance(db, { Settings__JwtSigningKeyFile: keyFile });
    try {
      expect((await inst2.login(ADMIN.username, ADMIN.password)).status).toBe(200);
      expect(inst2.logs()).toContain(
        `the JWT signing key file ${keyFile} can be read by other users (mode 644); chmod 600 it`,
      );
    } finally {
      await inst2.stop();
    }
  });

  it('a key that is missing, too short or given twice stops the start with a message naming the setting', async () => {
    await expect(startInstance(db, { Settings__JwtSigningKeyFile: join(db.dataDir, 'no-such.key') })).rejects.toThrow(
      /Settings:JwtSigningKeyFile: cannot read/,
    );
    await expect(startInstance(db, { Settings__JwtSigningKey: randomBytes(16).toString('base64') })).rejects.toThrow(
      /Settings:JwtSigningKey: .*at least 32 bytes/,
    );
    await expect(startInstance(db, { Settings__JwtSigningKey: 'not base64 at all!' })).rejects.toThrow(
      /Settings:JwtSigningKey: .*base64/,
    );
    const both = {
      Settings__JwtSigningKey: randomBytes(32).toString('base64'),
      Settings__JwtSigningKeyFile: join(db.dataDir, 'jwt.key'),
    };
    await expect(startInstance(db, both)).rejects.toThrow(/both set/);
  });

  it(
    'the stamp tag in a forged JWT still has to match: the ' + 'lifetime check comes on top of the other checks',
    async () => {
      const other = await new SignJWT({ ...claims, sst: stampTag('some other stamp'), iat: now(), exp: now() + 3600 })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(key);
      expect((await profile(other)).body.data.code).toBe('session_ended');
    },
  );
});
