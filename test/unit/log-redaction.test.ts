// The last pass over every log line: whatever looks like an API token or a JWT is redacted,
// wherever in the line it came from, and the line stays valid JSON.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, redactCredentialShapes } from '../../src/http/logger.js';

const TOKEN = 'pct_Zq3xW9vLr2Kt8Yh5Nb1Mc7Pd4Fg6Js0Aa1b2c3';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJxdWlubiJ9.Xk2mQ8rT5wY1zB4nC7vD0eF3gH6jK9lM2pR5sU8x';

async function logged(write: (log: ReturnType<typeof createLogger>) => void): Promise<string[]> {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const log = createLogger('info', sink);
  write(log);
  log.flush();
  await new Promise((r) => setImmediate(r));
  return chunks.join('').split('\n').filter(Boolean);
}

describe('log lines', () => {
  it('never carry a token-shaped string, in bindings, fields, nested values or the message', async () => {
    const lines = await logged((log) => {
      log.child({ requestId: TOKEN }).warn({ username: JWT }, 'authentication failed');
      log.info({ nested: { list: [`Bearer ${JWT}`, `api:${TOKEN.toUpperCase()}`] } }, `typed ${TOKEN}`);
      // A JSON escape right before the credential (its letter joins the run of token characters).
      log.warn({ username: `\n${JWT}`, other: `\u001b${TOKEN}` }, 'escaped');
    });
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).not.toMatch(/pct_[A-Za-z0-9]{8}|eyJhbGci|Xk2mQ8rT/i);
      expect(line).toContain('[REDACTED]');
      expect(() => JSON.parse(line)).not.toThrow();
    }
    const first = JSON.parse(lines[0]!);
    expect(first).toMatchObject({ requestId: '[REDACTED]', username: '[REDACTED]', msg: 'authentication failed' });
    expect(JSON.parse(lines[2]!).username).toBe('\n[REDACTED]');
  });

  it('leaves ordinary text alone: short or unshaped words, ids, paths, numbers', () => {
    const line = JSON.stringify({
      msg: 'keyJson eyJ pct_short monkeyJump pct_ /api/core/token/create/ci 3f0e8a9c-1b2d-4e5f-8a7b-6c5d4e3f2a1b',
      n: -1.5e10,
    });
    expect(redactCredentialShapes(line)).toBe(line);
  });

  it('keeps what comes before the credential in the same run', () => {
    expect(redactCredentialShapes(`id-${TOKEN} x.${JWT}`)).toBe('id-[REDACTED] x.[REDACTED]');
  });
});
