// src/lib/tick-object-shape.ts, checked where its effect lives: V8's feedback for the object
// literal in Node's `process.nextTick`. A child Node (this test's own version) with
// --allow-natives-syntax runs ticks, then full GCs while no tick is queued, then more ticks, and
// prints nextTick's feedback with %DebugPrint. Without the held entry the GCs free the entry's
// maps and the literal's computed-key sites turn megamorphic (the control run shows the test
// can see that); with it they stay monomorphic. Runs the compiled dist/ (npm test builds first).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const MODULE = new URL('../../dist/lib/tick-object-shape.js', import.meta.url);

// Several GCs: V8 keeps maps used by inline caches alive for a few collections after last use.
const SCRIPT = `
if (process.env.HOLD === '1') {
  const { holdTickObjectShape } = await import(${JSON.stringify(MODULE.href)});
  if (!holdTickObjectShape()) throw new Error('no TickObject was captured');
  if (!holdTickObjectShape()) throw new Error('a second call lost the held entry');
}
const debugPrint = new Function('f', '%DebugPrint(f)');
const burst = () => { for (let i = 0; i < 1000; i++) process.nextTick(() => {}, i); };
burst();
let collections = 4;
const step = () => {
  if (collections-- > 0) { globalThis.gc(); setTimeout(step, 5); return; }
  burst();
  setTimeout(() => debugPrint(process.nextTick), 10);
};
setTimeout(step, 10);
`;

/** The inline-cache states of the literal's property definitions in nextTick, in order. */
function literalSiteStates(hold: boolean): string[] {
  const r = spawnSync(
    process.execPath,
    ['--allow-natives-syntax', '--expose-gc', '--input-type=module', '-e', SCRIPT],
    {
      env: { ...process.env, HOLD: hold ? '1' : '0', NODE_OPTIONS: '' },
      encoding: 'utf8',
      timeout: 30_000,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  expect(r.status, r.stderr).toBe(0);
  return [...r.stdout.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1]!);
}

describe('holdTickObjectShape', () => {
  it('is built', () => {
    expect(existsSync(MODULE), `${MODULE.pathname} is missing: run npm run build`).toBe(true);
  });

  it('control: without it, idle full GCs turn the nextTick literal megamorphic', () => {
    const states = literalSiteStates(false);
    expect(states.length).toBeGreaterThanOrEqual(4);
    expect(states).toContain('MEGAMORPHIC');
  });

  it('with it, every computed-key site of the nextTick literal stays monomorphic', () => {
    const states = literalSiteStates(true);
    expect(states.length).toBeGreaterThanOrEqual(4);
    expect(new Set(states)).toEqual(new Set(['MONOMORPHIC']));
  });
});
