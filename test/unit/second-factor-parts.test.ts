// The pieces of the second factor on their own: TOTP steps and skew, and the encryption of the
// secrets at rest.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { matchingStep, newTotpSecret, totpCode, totpStep, totpUri } from '../../src/auth/totp.js';
import { SecretBox } from '../../src/auth/secret-box.js';

describe('TOTP', () => {
  const secret = newTotpSecret();
  const now = Date.UTC(2026, 0, 1, 12, 0, 15);

  it('accepts the codes of the current step and one either side, and says which step', () => {
    const step = totpStep(now);
    for (const d of [-1, 0, 1]) expect(matchingStep(secret, totpCode(secret, now + d * 30_000), now)).toBe(step + d);
  });

  it('refuses codes two steps away, and anything not six digits', () => {
    for (const d of [-2, 2]) {
      const code = totpCode(secret, now + d * 30_000);
      // Unless it happens to equal a code within the window (one in a few hundred thousand).
      const near = [-1, 0, 1].map((n) => totpCode(secret, now + n * 30_000));
      if (!near.includes(code)) expect(matchingStep(secret, code, now)).toBeNull();
    }
    for (const junk of ['', '12345', '1234567', 'abcdef', ' 123456', '１２３４５６'])
      expect(matchingStep(secret, junk, now)).toBeNull();
  });

  it('matches the RFC 6238 test vector (SHA-1, 8 digits cut to the 6 an app shows)', () => {
    // RFC 6238 appendix B: secret "12345678901234567890", T = 59 s → 94287082; 6 digits: 287082.
    const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(totpCode(rfcSecret, 59_000)).toBe('287082');
  });

  it('writes the otpauth URI authenticator apps read', () => {
    const uri = new URL(totpUri(secret, 'Platform Core', 'ada'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
  });
});

describe('secrets at rest', () => {
  const key = randomBytes(32);

  it('opens what it sealed for the same owner, and nothing else', () => {
    const box = new SecretBox(key);
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'user-1');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, 'user-1')).toBe('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP', 'user-1')).not.toBe(sealed); // a fresh IV each time
    expect(() => box.open(sealed, 'user-2')).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'user-1')).toThrow();
    const body = Buffer.from(sealed.slice(3), 'base64url');
    body[body.length - 1] = (body[body.length - 1] ?? 0) ^ 1;
    expect(() => box.open(`v1.${body.toString('base64url')}`, 'user-1')).toThrow();
    for (const junk of ['', 'v1.', 'v2.abc', 'v1.AAAA', 'plain text']) expect(() => box.open(junk, 'user-1')).toThrow();
  });
});
