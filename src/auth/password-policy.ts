// What a new password must be: long enough (Settings:PasswordMinLength), not on the list of
// common and breached passwords, not guessable by a strength estimator (zxcvbn-ts, score 0–1),
// and not containing the username. Applied wherever a password is set (account creation, the
// bootstrap administrator, an administrator's reset, the user's own change); a stored password
// is never re-judged, so existing ones keep working. The dictionaries ship in the npm packages:
// no network is needed.
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEn from '@zxcvbn-ts/language-en';
import { invalid } from '../lib/errors.js';
import { MAX_PASSWORD_LENGTH } from './passwords.js';

export interface PasswordPolicy {
  minLength: number;
}

/** Settings:PasswordMinLength's default: what a caller without settings applies. */
export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { minLength: 12 };

export type PasswordRule = 'length' | 'common' | 'weak' | 'contains_username';

/** The error code per rule (the 400's `code`; `details[0].rule` names the rule as well). */
const RULE_CODES: Record<PasswordRule, string> = {
  length: 'password_length',
  common: 'password_common',
  weak: 'password_weak',
  contains_username: 'password_contains_username',
};

/** The estimator's lowest acceptable score (0–4): 0 and 1 fall to an online or a fast offline guess. */
const MIN_SCORE = 2;

// Built on first use: loading the dictionaries takes a moment a process that never sets a
// password (the render workers, most CLI commands) should not pay.
let estimator: ZxcvbnFactory | undefined;
function strength(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEn.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
    translations: zxcvbnEn.translations,
  });
  return estimator;
}

export interface BrokenRule {
  rule: PasswordRule;
  message: string;
}

/** The first rule `password` breaks for the account `username`, or null when it may be set. */
export function brokenPasswordRule(password: string, username: string, policy: PasswordPolicy): BrokenRule | null {
  const length = [...password].length;
  if (length < policy.minLength || password.length > MAX_PASSWORD_LENGTH)
    return {
      rule: 'length',
      message: `password must have at least ${policy.minLength} characters (and at most ${MAX_PASSWORD_LENGTH})`,
    };
  if (username !== '' && password.toLowerCase().includes(username.toLowerCase()))
    return { rule: 'contains_username', message: 'password must not contain the username' };
  // The estimator's cost grows with the length; its judgement does not change past a few dozen characters.
  const result = strength().check(password.slice(0, 100));
  const whole = result.sequence.length === 1 ? result.sequence[0] : undefined;
  if (whole?.pattern === 'dictionary' && whole.dictionaryName.startsWith('passwords'))
    return { rule: 'common', message: 'password is on a list of common or breached passwords' };
  if (result.score < MIN_SCORE)
    return { rule: 'weak', message: 'password is too easy to guess: make it longer or less predictable' };
  return null;
}

/** Refuses (400, the code naming the rule) a password that breaks a rule; `field`: the body's. */
export function assertPasswordRules(password: string, username: string, policy: PasswordPolicy, field = 'password') {
  const broken = brokenPasswordRule(password, username, policy);
  if (broken === null) return;
  throw invalid(RULE_CODES[broken.rule], broken.message, [{ field, rule: broken.rule, message: broken.message }]);
}
