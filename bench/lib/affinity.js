// CPU pinning for the HTTP benchmarks. On a small machine the server and the load generator
// otherwise share cores as the scheduler sees fit: a run where both land on one core (or
// where the server keeps migrating) is slower for reasons that have nothing to do with the
// server, and the spread between runs hides the differences being measured. Pinned, the server
// child gets one core and the load generator (this process) another, for every target alike,
// so the baseline and the targets are measured under the same conditions.
// Linux only, and only with `taskset` (util-linux) and at least two cores; elsewhere nothing is
// pinned and the report says so.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

export const SERVER_CPU = 0;
export const LOAD_CPU = 1;

let available;

/** Whether pinning is possible here (checked once). */
export function canPin() {
  if (available !== undefined) return available;
  available = false;
  if (process.platform !== 'linux' || availableParallelism() < 2) return available;
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    available = true;
  } catch {
    // no taskset, or not allowed
  }
  return available;
}

/** The current affinity of `pid` as taskset's hex mask (to restore it later). */
function maskOf(pid) {
  const out = execFileSync('taskset', ['-p', String(pid)], { encoding: 'utf8' });
  const m = /:\s*([0-9a-f]+)\s*$/i.exec(out.trim());
  if (!m) throw new Error(`unexpected taskset output: ${out}`);
  return m[1];
}

/** Pins every thread of `pid` to `cpu`; threads created later inherit it. */
export function pin(pid, cpu) {
  execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
}

/**
 * Pins this process (the load generator) to LOAD_CPU and returns a function that restores the
 * affinity it had, so benchmarks run after this one are not confined to one core.
 */
export function pinSelf() {
  const before = maskOf(process.pid);
  pin(process.pid, LOAD_CPU);
  return () => execFileSync('taskset', ['-a', '-p', before, String(process.pid)], { stdio: 'ignore' });
}
