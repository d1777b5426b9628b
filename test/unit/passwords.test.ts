import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { hash as argon2Hash, parseOptions, type Algorithm, type Version } from '@node-rs/argon2';
import fc from 'fast-check';
import { describe, it, expect } from 'vitest';
import { argon2Hasher, hashPassword, verifyPassword } from '../../src/auth/passwords.js';

// Test vectors from ASP.NET Core's own PasswordHasher tests
// (dotnet/aspnetcore, src/Identity/test/Identity.Test/PasswordHasherTest.cs); password "my password".
const IDENTITY_PASSWORD = 'my password';
const IDENTITY_SUCCESS = [
  [
    'V2 SHA1 1000 it, 128-bit salt, 256-bit subkey',
    'ANXrDknc7fGPpigibZXXZFMX4aoqz44JveK6jQuwY3eH/UyPhvr5xTPeGYEckLxz9A==',
  ],
  ['V3 SHA512 50 it, 128-bit salt, 128-bit subkey', 'AQAAAAIAAAAyAAAAEOMwvh3+FZxqkdMBz2ekgGhwQ4B6pZWND6zgESBuWiHw'],
  [
    'V3 SHA512 250 it, 256-bit salt, 512-bit subkey',
    'AQAAAAIAAAD6AAAAIJbVi5wbMR+htSfFp8fTw8N8GOS/Sje+S/4YZcgBfU7EQuqv4OkVYmc4VJl9AGZzmRTxSkP7LtVi9IWyUxX8IAAf' +
      'Z8v+ZfhjCcudtC1YERSqE1OEdXLW9VukPuJWBBjLuw==',
  ],
  ['V3 SHA1 250 it, 128-bit salt, 128-bit subkey', 'AQAAAAAAAAD6AAAAEAhftMyfTJylOlZT+eEotFXd1elee8ih5WsjXaR3PA9M'],
  [
    'V3 SHA256 250000 it, 256-bit salt, 256-bit subkey',
    'AQAAAAEAA9CQAAAAIESkQuj2Du8Y+kbc5lcN/W/3NiAZFEm11P27nrSN5/tId+bR1SwV8CO1Jd72r4C08OLvplNlCDc3oQZ8efcW+jQ=',
  ],
] as const;
const IDENTITY_FAILURE = [
  ['V2 incorrect password', 'AAABAgMEBQYHCAkKCwwNDg+uAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAALtH1uJg=='],
  ['V2 too short', 'AAABAgMEBQYHCAkKCwwNDg+ukCEMDf0yyQ29NYubggE='],
  ['V2 extra data at end', 'AAABAgMEBQYHCAkKCwwNDg+ukCEMDf0yyQ29NYubggHIVY0sdEUfdyeM+E1LtH1uJgAAAAAAAAAAAAA='],
  ['V3 incorrect password', 'AQAAAAAAAAD6AAAAEAhftMyfTJyAAAAAAAAAAAAAAAAAAAih5WsjXaR3PA9M'],
  ['V3 too short', 'AQAAAAIAAAAyAAAAEOMwvh3+FZxqkdMBz2ekgGhwQ4A='],
  ['V3 extra data at end', 'AQAAAAIAAAAyAAAAEOMwvh3+FZxqkdMBz2ekgGhwQ4B6pZWND6zgESBuWiHwAAAAAAAAAAAA'],
] as const;
// What Identity writes for "my password" when its RNG yields the bytes 0x00, 0x01, 0x02, …
const IDENTITY_V2_SEQUENTIAL_SALT = 'AAABAgMEBQYHCAkKCwwNDg+ukCEMDf0yyQ29NYubggHIVY0sdEUfdyeM+E1LtH1uJg==';
const IDENTITY_V3_SEQUENTIAL_SALT =
  'AQAAAAEAACcQAAAAEAABAgMEBQYHCAkKCwwNDg+yWU7rLgUwPZb1Itsmra7cbxw2EFpwpVFIEtP+JIuUEw==';
const SEQUENTIAL_SALT = Buffer.from(Array.from({ length: 16 }, (_, i) => i));

const PRF = { sha1: 0, sha256: 1, sha512: 2 } as const;
type Prf = keyof typeof PRF;

// Identity layouts: V2 = 0x00|salt(16)|subkey(32); V3 = 0x01|prf|iterations|saltLength (u32be)|salt|subkey.
function identityV2(password: string, salt = randomBytes(16)): string {
  return Buffer.concat([Buffer.from([0x00]), salt, pbkdf2Sync(password, salt, 1000, 32, 'sha1')]).toString('base64');
}

function v3Header(prf: number, iterations: number, saltLength: number): Buffer {
  const header = Buffer.from([0x01, ...new Array<number>(12).fill(0)]);
  [prf, iterations, saltLength].forEach((value, i) => {
    header.writeUInt32BE(value, 1 + 4 * i);
  });
  return header;
}

interface V3Options {
  prf?: Prf;
  iterations?: number;
  salt?: Buffer;
  subkeyBytes?: number;
}
function identityV3Bytes(password: string, o: V3Options = {}): Buffer {
  const { prf = 'sha256', iterations = 1000, salt = randomBytes(16), subkeyBytes = 32 } = o;
  const subkey = pbkdf2Sync(password, salt, iterations, subkeyBytes, prf);
  return Buffer.concat([v3Header(PRF[prf], iterations, salt.length), salt, subkey]);
}
const identityV3 = (password: string, o: V3Options = {}): string => identityV3Bytes(password, o).toString('base64');

const FAILED = { ok: false, needsRehash: false };

describe('argon2id hashing', () => {
  it('round-trips and rejects a wrong password', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(await verifyPassword('correct horse battery staple', stored)).toEqual({ ok: true, needsRehash: false });
    expect(await verifyPassword('correct horse battery stapl', stored)).toEqual(FAILED);
    expect(await verifyPassword('Correct horse battery staple', stored)).toEqual(FAILED);
  });

  it('writes an argon2id PHC string at the OWASP parameters with a fresh salt', async () => {
    const a = await hashPassword('pässwörd 🔑');
    const b = await hashPassword('pässwörd 🔑');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(parseOptions(a)).toMatchObject({
      memoryCost: 19456,
      timeCost: 2,
      parallelism: 1,
      saltLen: 16,
      outputLen: 32,
    });
    expect(a).not.toBe(b);
    expect((await verifyPassword('pässwörd 🔑', b)).ok).toBe(true);
  });

  it('asks to rehash argon2 hashes weaker than the current policy, not stronger ones', async () => {
    const pw = 'upgrade me';
    const weaker = [
      await argon2Hash(pw, { memoryCost: 8192, timeCost: 2, parallelism: 1 }),
      await argon2Hash(pw, { memoryCost: 19456, timeCost: 1, parallelism: 1 }),
      await argon2Hash(pw, { algorithm: 1 as Algorithm }), // argon2i
      await argon2Hash(pw, { version: 0 as Version }), // v=16
      await argon2Hash(pw, { outputLen: 16 }),
    ];
    for (const stored of weaker) expect(await verifyPassword(pw, stored)).toEqual({ ok: true, needsRehash: true });
    const stronger = await argon2Hash(pw, { memoryCost: 32768, timeCost: 3, parallelism: 2 });
    expect(await verifyPassword(pw, stronger)).toEqual({ ok: true, needsRehash: false });
    expect(await verifyPassword('other', weaker[0]!)).toEqual(FAILED);
  });
});

describe('ASP.NET Core Identity hashes', () => {
  it.each(IDENTITY_SUCCESS)('verifies the official vector %s and asks for a rehash', async (_, stored) => {
    expect(await verifyPassword(IDENTITY_PASSWORD, stored)).toEqual({ ok: true, needsRehash: true });
    expect(await verifyPassword('my passworD', stored)).toEqual(FAILED);
  });

  it.each(IDENTITY_FAILURE)('rejects the official failure vector %s', async (_, stored) => {
    expect(await verifyPassword(IDENTITY_PASSWORD, stored)).toEqual(FAILED);
  });

  it('generates the documented layout byte-for-byte (checked against Identity output)', () => {
    expect(identityV2(IDENTITY_PASSWORD, SEQUENTIAL_SALT)).toBe(IDENTITY_V2_SEQUENTIAL_SALT);
    const v3 = identityV3(IDENTITY_PASSWORD, { prf: 'sha256', iterations: 10_000, salt: SEQUENTIAL_SALT });
    expect(v3).toBe(IDENTITY_V3_SEQUENTIAL_SALT);
  });

  it('verifies generated V2 hashes', async () => {
    const stored = identityV2('imported user');
    expect(await verifyPassword('imported user', stored)).toEqual({ ok: true, needsRehash: true });
    expect(await verifyPassword('imported user ', stored)).toEqual(FAILED);
  });

  it.each(['sha1', 'sha256', 'sha512'] as const)('verifies generated V3 hashes with %s', async (prf) => {
    for (const o of [
      { prf },
      { prf, iterations: 1, salt: randomBytes(32), subkeyBytes: 64 },
      { prf, subkeyBytes: 16 },
    ]) {
      const stored = identityV3('imported user', o);
      expect(await verifyPassword('imported user', stored)).toEqual({ ok: true, needsRehash: true });
      expect(await verifyPassword('imported usex', stored)).toEqual(FAILED);
    }
  });
});

describe('malformed and hostile input', () => {
  const v3 = (mutate: (b: Buffer) => void): string => {
    const bytes = identityV3Bytes('pw', { iterations: 10 });
    mutate(bytes);
    return bytes.toString('base64');
  };
  const argonSalt = 'c29tZXNhbHRzb21lc2FsdA';
  const argonDigest = 'B07iqKDINlR7Bt/lqI3RoWbsDD94o3GAxCXjJRnp3dA';
  const cases: [string, string][] = [
    ['empty', ''],
    ['garbage', 'not a hash at all'],
    ['bare prefix', '$argon2id$'],
    ['unknown algorithm', `$argon2x$v=19$m=19456,t=2,p=1$${argonSalt}$${argonDigest}`],
    // Without a cap this allocates terabytes and the process is killed.
    ['argon2 absurd memory', `$argon2id$v=19$m=4294967295,t=2,p=1$${argonSalt}$${argonDigest}`],
    ['argon2 absurd time', `$argon2id$v=19$m=19456,t=4294967295,p=1$${argonSalt}$${argonDigest}`],
    ['argon2 memory below lanes', `$argon2id$v=19$m=1,t=2,p=1$${argonSalt}$${argonDigest}`],
    ['argon2 tiny digest', `$argon2id$v=19$m=19456,t=2,p=1$${argonSalt}$AAAAAA`],
    ['argon2 non-canonical digest', `$argon2id$v=19$m=19456,t=2,p=1$${argonSalt}$${argonDigest.slice(0, -1)}B`],
    ['argon2 padded digest', `$argon2id$v=19$m=19456,t=2,p=1$${argonSalt}$${argonDigest}=`],
    ['V3 unknown PRF', v3((b) => b.writeUInt32BE(3, 1))],
    ['V3 zero iterations', v3((b) => b.writeUInt32BE(0, 5))],
    ['V3 iterations over the cap', v3((b) => b.writeUInt32BE(10_000_001, 5))],
    ['V3 iterations 2^32-1', v3((b) => b.writeUInt32BE(0xffffffff, 5))],
    ['V3 salt length 2^32-1', v3((b) => b.writeUInt32BE(0xffffffff, 9))],
    ['V3 salt length beyond data', v3((b) => b.writeUInt32BE(40, 9))],
    ['V3 salt too short', v3((b) => b.writeUInt32BE(8, 9))],
    ['V3 header only', v3Header(1, 10, 16).toString('base64')],
    ['unknown marker', Buffer.concat([Buffer.from([0x02]), randomBytes(48)]).toString('base64')],
    ['base64url spelling', identityV2('pw', Buffer.alloc(16, 0xfb)).replaceAll('+', '-').replaceAll('/', '_')],
    ['embedded whitespace', identityV2('pw').replace(/^(.{8})/, '$1 ')],
  ];

  it.each(cases)('%s → not ok, no throw', async (_, stored) => {
    expect(await verifyPassword('pw', stored)).toEqual(FAILED);
  });

  it('the same values unmodified do verify, so the cases above fail for the stated reason', async () => {
    const lenient = identityV2('pw', Buffer.alloc(16, 0xfb));
    expect(lenient).toMatch(/[+/]/);
    for (const stored of [lenient, v3(() => {})])
      expect(await verifyPassword('pw', stored)).toEqual({ ok: true, needsRehash: true });
    expect(
      await verifyPassword(
        'pw',
        v3((b) => b.writeUInt32BE(11, 5)),
      ),
    ).toEqual(FAILED); // iteration count changed
  });

  it('rejects empty, over-long and non-string passwords', async () => {
    const stored = await hashPassword('x'.repeat(4096));
    expect((await verifyPassword('x'.repeat(4096), stored)).ok).toBe(true);
    expect(await verifyPassword('x'.repeat(4097), stored)).toEqual(FAILED);
    expect(await verifyPassword('', identityV2(''))).toEqual(FAILED);
    expect(await verifyPassword(undefined as unknown as string, stored)).toEqual(FAILED);
    expect(await verifyPassword('x', null as unknown as string)).toEqual(FAILED);
    await expect(hashPassword('x'.repeat(4097))).rejects.toThrow(Error);
    await expect(hashPassword('')).rejects.toThrow(Error);
  });

  it('random strings never verify and never throw', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.string({ minLength: 1, maxLength: 20 }),
        async (stored, pw) => {
          expect(await verifyPassword(pw, stored)).toEqual(FAILED);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('random bytes behind each marker never verify and never throw', async () => {
    const header = fc.oneof(
      fc.constant(Buffer.from([0x00])),
      fc
        .tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 300 }))
        .map(([prf, iterations, saltLength]) => v3Header(prf, iterations, saltLength)),
      fc.constant(Buffer.alloc(0)),
    );
    await fc.assert(
      fc.asyncProperty(header, fc.uint8Array({ maxLength: 400 }), async (head, tail) => {
        const stored = Buffer.concat([head, tail]).toString('base64');
        expect(await verifyPassword('pw', stored)).toEqual(FAILED);
      }),
      { numRuns: 300 },
    );
  });

  it('any single bit flip in an Identity hash breaks it', async () => {
    const pw = 'flip me';
    const originals = [
      identityV2(pw),
      identityV3(pw, { prf: 'sha1', iterations: 100 }),
      identityV3(pw, { prf: 'sha512', iterations: 100 }),
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...originals),
        fc.nat(),
        fc.integer({ min: 0, max: 7 }),
        async (original, at, bit) => {
          const bytes = Buffer.from(original, 'base64');
          // Flipping bits of the V3 iteration count can ask for millions of rounds: correct, but
          // slow, so the iteration field is covered by its own case above.
          const positions = [...bytes.keys()].filter((i) => bytes[0] === 0x00 || i < 5 || i > 8);
          const i = positions[at % positions.length]!;
          bytes[i]! ^= 1 << bit;
          expect(await verifyPassword(pw, bytes.toString('base64'))).toEqual(FAILED);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('truncated hashes never verify', async () => {
    const pw = 'truncate me';
    // V3 with the minimum 16-byte subkey: a PBKDF2 output is a prefix of any longer one, so
    // a longer subkey cut down to ≥16 bytes would still (correctly, as in Identity) verify.
    const byteFormats = [identityV2(pw), identityV3(pw, { subkeyBytes: 16 })];
    const phc = await hashPassword(pw);
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), async (a, b) => {
        const bytes = Buffer.from(byteFormats[a % 2]!, 'base64');
        const cutBytes = bytes.subarray(0, b % bytes.length).toString('base64');
        expect(await verifyPassword(pw, cutBytes)).toEqual(FAILED);
        expect(await verifyPassword(pw, phc.slice(0, b % phc.length))).toEqual(FAILED);
      }),
      { numRuns: 100 },
    );
  });

  it('any edited character of an argon2 PHC string breaks it', async () => {
    const pw = 'edit me';
    const phc = await hashPassword(pw);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/$=,';
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.constantFrom(...alphabet), async (at, ch) => {
        const i = at % phc.length;
        fc.pre(phc[i] !== ch);
        const edited = phc.slice(0, i) + ch + phc.slice(i + 1);
        expect(await verifyPassword(pw, edited)).toEqual(FAILED);
      }),
      { numRuns: 100 },
    );
  });
});

describe('event loop and unknown users', () => {
  it('keeps the event loop responsive while hashing and verifying', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      const hashes = await Promise.all(['a1', 'b2', 'c3', 'd4'].map((pw) => hashPassword(pw)));
      expect(ticks).toBeGreaterThan(0);
      ticks = 0;
      // The slowest official vector: 250,000 PBKDF2-SHA256 rounds.
      const slow = IDENTITY_SUCCESS[4][1];
      const results = await Promise.all([verifyPassword(IDENTITY_PASSWORD, slow), verifyPassword('a1', hashes[0]!)]);
      expect(ticks).toBeGreaterThan(0);
      expect(results.map((r) => r.ok)).toEqual([true, true]);
    } finally {
      clearInterval(timer);
    }
  });

  it('the dummy hash matches no password, and costs what a real hash at the current parameters costs', async () => {
    for (const pw of ['someone guessing', '', 'x'.repeat(5000), 42 as unknown as string]) {
      expect(await argon2Hasher.verify(pw, argon2Hasher.dummyHash)).toEqual(FAILED);
    }
    const real = await hashPassword('a real password');
    // Same algorithm, version and cost parameters: only salt and digest differ.
    const params = (phc: string) => phc.split('$').slice(1, 4).join('$');
    expect(params(argon2Hasher.dummyHash)).toBe(params(real));
  });
});
