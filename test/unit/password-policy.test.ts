import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/lib/errors.js';
import { assertPasswordRules, brokenPasswordRule } from '../../src/auth/password-policy.js';

const policy = { minLength: 12 };

describe('password rules', () => {
  it('accepts a long, unpredictable password', () => {
    expect(brokenPasswordRule('correct horse battery staple', 'ada', policy)).toBeNull();
    expect(brokenPasswordRule('Quartz-Meadow-Lantern-47', 'ada', policy)).toBeNull();
  });

  it('counts characters, not UTF-16 units, against the minimum', () => {
    // 11 characters, 22 UTF-16 units: still too short.
    expect(brokenPasswordRule('😀'.repeat(11), 'ada', policy)?.rule).toBe('length');
    expect(brokenPasswordRule('Quartz-Mead', 'ada', policy)?.rule).toBe('length');
    expect(brokenPasswordRule('Quartz-Mead', 'ada', { minLength: 11 })?.rule).not.toBe('length');
    expect(brokenPasswordRule('x'.repeat(4097), 'ada', policy)?.rule).toBe('length');
  });

  it('refuses the username inside the password, whatever the case', () => {
    expect(brokenPasswordRule('Meadow-ADA.Lovelace-47', 'ada.lovelace', policy)?.rule).toBe('contains_username');
    expect(brokenPasswordRule('quartz-meadow-Ada-47', 'ada', policy)?.rule).toBe('contains_username');
  });

  it('refuses passwords on the common list, and guessable ones', () => {
    expect(brokenPasswordRule('qwerty123456', 'ada', policy)?.rule).toBe('common');
    expect(brokenPasswordRule('1q2w3e4r5t6y', 'ada', policy)?.rule).toBe('common');
    expect(brokenPasswordRule('password1234', 'ada', policy)?.rule).toBe('weak');
    expect(brokenPasswordRule('aaaaaaaaaaaaaaaa', 'ada', policy)?.rule).toBe('weak');
    expect(brokenPasswordRule('abcdefghijklmnop', 'ada', policy)?.rule).toBe('weak');
  });

  it('answers a 400 whose code and detail name the rule and the field', () => {
    let caught: unknown;
    try {
      assertPasswordRules('Meadow-ada-Lantern-47', 'ada', policy, 'new_password');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    const err = caught as AppError;
    expect(err.kind).toBe('invalid');
    expect(err.code).toBe('password_contains_username');
    expect(err.details?.[0]).toMatchObject({ field: 'new_password', rule: 'contains_username' });
  });
});
