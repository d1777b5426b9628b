// Renders one generated report in a fresh process and prints one JSON line; used by
// bench/report-matrix.js. argv[2] is JSON: { kind: 'matrix' | 'list', rows, format: 'pdf' | 'html',
// renders, profile? }.
//   - matrix: lib/matrix-fixture.js, 1,000 customers × 50 weeks, `rows` data rows;
//   - list:   lib/report-fixture.js's generated list of `rows` rows (the baseline).
// As in report-child.js: the JIT is warmed on a small report of the same kind first; then the
// first render of the measured size gives the peak RSS (VmHWM read right after it: the figure a
// server rendering it sees) and the time per render is the best of it and `renders` further ones
// (the first result is dropped before them, so they do not run on a heap holding it).
// With `profile` (a file name), one more render runs with the V8 sampling profiler on and its
// .cpuprofile is written there.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { renderReport } from '../../dist/report/index.js';
import { matrixData, matrixTemplate } from './matrix-fixture.js';
import { listData, listTemplate } from './report-fixture.js';
import { peakRssMb } from './child-output.js';

const { kind, rows, format, renders = 1, profile } = JSON.parse(process.argv[2] ?? '{}');
if (kind !== 'matrix' && kind !== 'list') throw new Error(`matrix-child: unknown kind ${kind}`);
const template = kind === 'matrix' ? matrixTemplate() : listTemplate();
const json = kind === 'matrix' ? matrixData(rows) : listData(rows);
// The warm-up report: a tenth of the columns' worth of customers for the matrix (100 × 50, one
// row per cell), 1,000 rows for the list.
const warmJson = kind === 'matrix' ? matrixData(5_000, 100, 50) : listData(1_000);
const now = new Date(Date.UTC(2026, 0, 1));

const mb = (bytes) => bytes / (1024 * 1024);

const render = (data) => {
  const t0 = process.hrtime.bigint();
  const result = renderReport({ template, data: { json: data }, format, now });
  return { result, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
};

// Warm-up: render until the time stops improving (at least 3, at most 8 renders); one is not
// enough, the optimising compiler picks up the hot loops over the following ones.
let warmBest = Infinity;
for (let i = 0, stale = 0; i < 8 && (i < 3 || stale < 2); i++) {
  const { ms } = render(warmJson);
  if (ms < warmBest * 0.97) {
    warmBest = ms;
    stale = 0;
  } else stale++;
}

const rssBeforeMb = mb(process.memoryUsage().rss);
const first = render(json);
const peak = peakRssMb();
const shown = {
  firstMs: first.ms,
  pages: first.result.pages,
  bytes: first.result.output.length,
  warnings: first.result.warnings,
};
first.result = null;
// (No forced gc() between renders: a full collection of that kind drops compiled code.)
let best = first.ms;
for (let i = 0; i < renders; i++) best = Math.min(best, render(json).ms);

let profiledMs = null;
if (profile) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  profiledMs = render(json).ms;
  const { profile: data } = await session.post('Profiler.stop');
  session.disconnect();
  writeFileSync(profile, JSON.stringify(data));
}

process.stdout.write(
  `${JSON.stringify({ kind, rows, format, ms: best, ...shown, rssBeforeMb, peakRssMb: peak, profiledMs })}\n`,
);
