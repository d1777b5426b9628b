import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TemplateError } from '../../../src/report/errors.js';
import {
  decryptConnectionString,
  encryptConnectionString,
  isEncrypted,
  parseConnectionString,
} from '../../../src/report/data/index.js';
import { deriveKeyIv } from '../../../src/report/data/crypter.js';

// An MsSqlDataConnection's ConnectionString as FastReport wrote it into a report template in a
// public repository (a local SQLEXPRESS, integrated security, no credentials). Decrypting it
// checks the key/IV derivation against real FastReport output, not just our own round trip.
const REAL =
  'rijcmlqM3/HbiZANEYP3Y6oNtE7mrUmT0ytl94C6DYS4DXvgc8JqhVjVQGe7Sc2pOMNI3eDZu4y6+BLf6/PCErp5V5iYO+NhUsLGHVpiKU' +
  'oEc7fdRAKM3dC4G3zKvHq63vBaaJuNWt1RaEUDxyLLh6IMbjf+Iqjj5s+Su4iyajqSNb5u2mTlxcVInKupOBFFxa/QOyK';

describe('rij connection strings (FastReport Crypter)', () => {
  it('decrypts a connection string written by FastReport', () => {
    const plain = decryptConnectionString(REAL);
    expect(plain.startsWith('Data Source=.\\SQLEXPRESS;')).toBe(true);
    const pairs = parseConnectionString(plain);
    expect(pairs.get('initial catalog')).toBe('medicine');
    expect(pairs.get('integrated security')).toBe('True');
  });

  it('derives key and IV as PasswordDeriveBytes(…, "Salt").GetBytes(16) twice', () => {
    const { key, iv } = deriveKeyIv('FastReport.Utils.Crypter');
    expect(key).toHaveLength(16);
    expect(iv).toHaveLength(16);
    // The IV repeats bytes 4..8 of the key's hash block (the .NET buffering quirk).
    expect(iv.subarray(0, 4)).toEqual(key.subarray(4, 8));
  });

  it('round-trips any text, with fresh filler bytes each time', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200, unit: 'grapheme' }), (s) => {
        const enc = encryptConnectionString(s);
        expect(isEncrypted(enc)).toBe(true);
        expect(enc.startsWith('rijcmlq')).toBe(true); // "rij" + base64("rij" …)
        expect(decryptConnectionString(enc)).toBe(s);
      }),
      { numRuns: 200 },
    );
    expect(encryptConnectionString('Json=[]', 'my password')).not.toBe(encryptConnectionString('Json=[]'));
    expect(decryptConnectionString(encryptConnectionString('Json=[]', 'my password'), 'my password')).toBe('Json=[]');
  });

  it('passes plain strings through and rejects damaged ones', () => {
    expect(decryptConnectionString('Json=[1]')).toBe('Json=[1]');
    expect(decryptConnectionString('')).toBe('');
    expect(() => decryptConnectionString('rij!!!')).toThrow(TemplateError);
    expect(() => decryptConnectionString('rijAAAA')).toThrow(/not FastReport data/);
    expect(() => decryptConnectionString(REAL.slice(0, -4))).toThrow(TemplateError);
    let wrong = 0;
    for (let i = 0; i < 20; i++) {
      try {
        decryptConnectionString(encryptConnectionString(`Json=[${i}]`), 'wrong');
      } catch (e) {
        expect(e).toBeInstanceOf(TemplateError);
        wrong++;
      }
    }
    expect(wrong).toBeGreaterThan(15); // a wrong key yields garbage that rarely passes the checks
  });
});
