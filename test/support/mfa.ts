// Second-factor helpers for the tests: enrol and confirm TOTP through the API, make codes, and
// read the enrolment's QR code with a real decoder.
import { totpCode } from '../../src/auth/totp.js';
import type { Gray } from './barcode-readers.js';
import type { Instance } from './instance.js';

export type Caller = (
  jwt: string | null,
  method: string,
  path: string,
  json?: unknown,
) => ReturnType<Instance['request']>;

export function callerOf(inst: Instance): Caller {
  return (jwt, method, path, json) =>
    inst.request(path, {
      method,
      headers: jwt ? { Authorization: `Bearer ${jwt}` } : {},
      ...(json !== undefined ? { json } : {}),
    });
}

/** The secret of an otpauth:// URI. */
export const secretOf = (uri: string): string => new URL(uri).searchParams.get('secret') ?? '';

/** A code of the step after the current one: accepted now (clock skew) and later than any code used so far. */
export const nextCode = (secret: string): string => totpCode(secret, Date.now() + 30_000);

/** Enrols and confirms TOTP for the caller; answers the secret and the recovery codes. */
export async function enrolTotp(as: Caller, jwt: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const enrol = await as(jwt, 'POST', '/api/core/account/mfa/totp');
  if (enrol.status !== 200) throw new Error(`enrolment failed: ${enrol.status} ${enrol.text}`);
  const secret = secretOf(enrol.body.data.uri);
  const confirm = await as(jwt, 'POST', '/api/core/account/mfa/totp/confirm', { code: totpCode(secret) });
  if (confirm.status !== 200) throw new Error(`confirmation failed: ${confirm.status} ${confirm.text}`);
  return { secret, recoveryCodes: confirm.body.data.recovery_codes };
}

/** The SVG the enrolment answers, drawn as a greyscale image (`scale` pixels a module). */
export function svgQrToGray(svg: string, scale = 4): Gray {
  const box = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  const path = /<path[^>]* d="([^"]*)"/.exec(svg);
  if (!box || !path) throw new Error('not the QR SVG');
  const columns = Number(box[1]);
  const rows = Number(box[2]);
  const width = columns * scale;
  const height = rows * scale;
  const data = new Uint8Array(width * height).fill(255);
  for (const m of (path[1] ?? '').matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    const [x, y, w] = [Number(m[1]), Number(m[2]), Number(m[3])];
    for (let py = y * scale; py < (y + 1) * scale; py++)
      data.fill(0, py * width + x * scale, py * width + (x + w) * scale);
  }
  return { width, height, data };
}

/** A session that passed the second factor now: the password, then a code of the next step. */
export async function mfaSession(inst: Instance, username: string, password: string, secret: string): Promise<string> {
  const first = await inst.login(username, password);
  if (first.body?.data?.code !== 'mfa_required') throw new Error(`no second step: ${first.status} ${first.text}`);
  const second = await inst.request('/api/core/account/login/mfa', {
    method: 'POST',
    json: { mfa_token: first.body.data.mfa_token, code: nextCode(secret) },
  });
  if (second.status !== 200) throw new Error(`second step failed: ${second.status} ${second.text}`);
  return second.body.data.token as string;
}
