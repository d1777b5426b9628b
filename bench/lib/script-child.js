// Renders the generated list and the same list with a script handler on every row, alternating,
// in one process and one format, and prints one JSON line: the best time of each (warm code).
import { renderReport } from '../../dist/report/index.js';
import { listData, listTemplate, scriptedListTemplate } from './report-fixture.js';

const rows = Number(process.argv[2]);
const format = process.argv[3];
const repeats = Number(process.argv[4] ?? 4);
const now = new Date(Date.UTC(2026, 0, 1));
const templates = { plain: listTemplate(), script: scriptedListTemplate() };
const json = listData(rows);

// Wall time, and CPU time of the process (less disturbed by other load on a shared machine).
const render = (template, data) => {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  const r = renderReport({ template, data: { json: data }, format, now });
  const c = process.cpuUsage(c0);
  return {
    ms: Number(process.hrtime.bigint() - t0) / 1e6,
    cpu: (c.user + c.system) / 1e3,
    pages: r.pages,
    warnings: r.warnings.length,
  };
};

// Warm-up: the JIT needs a few renders of each before times mean anything.
const small = listData(1000);
for (let i = 0; i < 5; i++) for (const t of Object.values(templates)) render(t, small);
const best = { plain: Infinity, script: Infinity, plainCpu: Infinity, scriptCpu: Infinity };
let pages = 0;
let warnings = 0;
for (let i = 0; i < repeats; i++)
  for (const [name, t] of Object.entries(templates)) {
    const r = render(t, json);
    best[name] = Math.min(best[name], r.ms);
    best[`${name}Cpu`] = Math.min(best[`${name}Cpu`], r.cpu);
    pages = r.pages;
    warnings += r.warnings;
  }
process.stdout.write(`${JSON.stringify({ rows, format, ...best, pages, warnings })}\n`);
