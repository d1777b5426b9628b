// Renders a generated list report of N rows in a fresh process and prints one JSON line:
// time per render (best of a few), pages, output size and the process's peak RSS. A child per
// size keeps the peak-memory figure of one size clean of the others.
import { readFileSync } from 'node:fs';
import { renderReport } from '../../dist/report/index.js';
import { listTemplate, listData } from './report-fixture.js';

const rows = Number(process.argv[2]);
const repeats = Number(process.argv[3] ?? 3);
const template = listTemplate();
const json = listData(rows);

// Warm the JIT on a small report first, so both sizes are timed on compiled code.
renderReport({ template, data: { json: listData(300) }, format: 'html' });

let best = Infinity;
let result;
for (let i = 0; i < repeats; i++) {
  const t0 = process.hrtime.bigint();
  result = renderReport({ template, data: { json }, format: 'html', now: new Date(Date.UTC(2026, 0, 1)) });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  best = Math.min(best, ms);
}
const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
process.stdout.write(
  `${JSON.stringify({ rows, ms: best, pages: result.pages, bytes: Buffer.byteLength(result.output), peakRssMb: hwm ? Number(hwm[1]) / 1024 : null, warnings: result.warnings.length })}\n`,
);
