// In-process micro-benchmark helpers: alternate the candidate and its baseline for several
// rounds and report medians, so a machine hiccup hits both sides alike.

/** Runs fn repeatedly for about `ms` milliseconds; returns operations per second. */
export function opsPerSecond(fn, ms) {
  let ops = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(ms * 1e6));
  let now = start;
  while (now < deadline) {
    for (let i = 0; i < 64; i++) fn();
    ops += 64;
    now = process.hrtime.bigint();
  }
  return ops / (Number(now - start) / 1e9);
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** { name: fn } → { name: median ops/s } over alternating rounds. */
export function compare(fns, { rounds = 5, ms = 400 } = {}) {
  const samples = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (const fn of Object.values(fns)) opsPerSecond(fn, 100); // warm-up, JIT
  for (let r = 0; r < rounds; r++) for (const [k, fn] of Object.entries(fns)) samples[k].push(opsPerSecond(fn, ms));
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

export const fmt = (n) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(2)} M/s` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k/s` : `${n.toFixed(1)} /s`;
