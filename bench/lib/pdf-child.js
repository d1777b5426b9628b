// Renders the generated list report of N rows to PDF in a fresh process (template + data →
// PDF bytes, everything included) and prints one JSON line: best time of a few renders, pages,
// PDF size and the process's peak RSS. With a third argument, also writes our HTML of the same
// report there (what Chromium prints in the comparison) and the PDF next to it.
import { readFileSync, writeFileSync } from 'node:fs';
import { exportPdfSync, renderReport } from '../../dist/report/index.js';
import { listTemplate, listData } from './report-fixture.js';

const rows = Number(process.argv[2]);
const repeats = Number(process.argv[3] ?? 3);
const htmlOut = process.argv[4];
const template = listTemplate();
const json = listData(rows);
const now = new Date(Date.UTC(2026, 0, 1));

// Warm the JIT on a smaller report first, so every size is timed on compiled code: one render
// is not enough (the optimising compiler picks up the hot loops over the following ones), so
// render until the time stops improving (at least 3, at most 10 renders).
const warmJson = listData(Math.min(rows, 1000));
let warmBest = Infinity;
for (let i = 0, stale = 0; i < 10 && (i < 3 || stale < 2); i++) {
  const t0 = process.hrtime.bigint();
  renderReport({ template, data: { json: warmJson }, format: 'pdf', now });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (ms < warmBest * 0.97) {
    warmBest = ms;
    stale = 0;
  } else stale++;
}

let best = Infinity;
let result;
for (let i = 0; i < repeats; i++) {
  const t0 = process.hrtime.bigint();
  result = renderReport({ template, data: { json }, format: 'pdf', now });
  best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
}
const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
// The exporter alone (prepared report → PDF bytes), best of as many runs (after the
// peak was read): the part of the time that is the PDF writer's.
let exportMs = Infinity;
for (let i = 0; i < repeats; i++) {
  const t0 = process.hrtime.bigint();
  exportPdfSync(result.prepared, { creationDate: now });
  exportMs = Math.min(exportMs, Number(process.hrtime.bigint() - t0) / 1e6);
}
if (htmlOut) {
  // Written after the peak was read, so the HTML render does not count towards it.
  writeFileSync(`${htmlOut}.pdf`, result.output);
  writeFileSync(htmlOut, renderReport({ template, data: { json }, format: 'html', now }).output);
}
const measured = {
  rows,
  ms: best,
  pages: result.pages,
  exportMs,
  bytes: result.output.length,
  peakRssMb: hwm ? Number(hwm[1]) / 1024 : null,
  warnings: result.warnings.length,
};
process.stdout.write(`${JSON.stringify(measured)}\n`);
