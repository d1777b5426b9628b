// The report engine on a generated matrix (cross-tab, issue 16): 1,000 customers × 50 weeks, one
// data cell (Sum of amount) with row, column and grand totals, from 50,000 data rows (each
// customer × week once) and from 500,000 (each ten times: the same table, so the output is the
// same size and only the data part grows). Per format (PDF, then HTML): the time per render,
// pages and peak RSS of each; the growth time(500,000) / time(50,000) (aim ≤ 11); and the ratio
// to the generated list of 50,000 rows (lib/report-fixture.js, the list the report-engine and
// pdf-export benchmarks use) rendered the same way (a later aim: the matrix within 2× of it).
// Each case runs in a fresh process (peak RSS is per process; see lib/matrix-child.js).
//
//   node --expose-gc bench/run.js report-matrix                  PDF and HTML
//   node --expose-gc bench/run.js report-matrix --targets=pdf    one format
//   node --expose-gc bench/run.js report-matrix --prof           + where the matrix renders' time goes
//   --rounds=N: renders per case after the first (default 1; the best of all counts).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const description = 'report engine: 1,000 × 50 matrix from 50,000 and 500,000 rows vs a 50,000-row list';
export const defaults = { rounds: 1 };

const CHILD = fileURLToPath(new URL('./lib/matrix-child.js', import.meta.url));
const FORMATS = ['pdf', 'html'];
const SMALL = 50_000;
const LARGE = 500_000;

function measure(o) {
  const out = execFileSync(process.execPath, [CHILD, JSON.stringify(o)], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').at(-1));
}

const n = (x) => x.toLocaleString('en-US');
const s = (ms) => (ms / 1000).toFixed(2);

export async function run({ options, log, profiles }) {
  const formats = options.targets?.length ? options.targets : FORMATS;
  const unknown = formats.filter((f) => !FORMATS.includes(f));
  if (unknown.length) return { failures: [`unknown format(s) ${unknown.join(', ')} (--targets=pdf,html)`] };
  const renders = Math.max(1, Math.min(5, options.rounds));
  const failures = [];
  const headlines = [];
  for (const format of formats) {
    const cases = [
      { kind: 'matrix', rows: SMALL, label: `matrix 1,000 × 50, ${n(SMALL)} rows` },
      { kind: 'matrix', rows: LARGE, label: `matrix 1,000 × 50, ${n(LARGE)} rows` },
      { kind: 'list', rows: SMALL, label: `list, ${n(SMALL)} rows` },
    ];
    const results = cases.map((c) => {
      const profile =
        options.prof && c.kind === 'matrix'
          ? join(options.profDir, `report-matrix-${format}-${c.rows}.cpuprofile`)
          : undefined;
      const r = measure({ kind: c.kind, rows: c.rows, format, renders, profile });
      log(
        `${format.padEnd(4)} ${c.label.padEnd(32)} ${String(r.pages).padStart(4)} pages in ${s(r.ms)} s ` +
          `(first render ${s(r.firstMs)} s), ${(r.bytes / 1e6).toFixed(1)} MB; RSS ${r.rssBeforeMb.toFixed(0)} MB ` +
          `before the render, peak ${r.peakRssMb?.toFixed(0)} MB`,
      );
      if (r.warnings.length)
        failures.push(`${format} ${c.label}: ${r.warnings.length} warning(s), e.g. ${r.warnings[0]}`);
      if (profile) profiles?.push({ file: profile, label: `${format} ${c.label} (one render, ${s(r.profiledMs)} s)` });
      return r;
    });
    const [small, large, list] = results;
    const growth = large.ms / small.ms;
    const vsList = small.ms / list.ms;
    log(
      `${format}: time(${n(LARGE)} rows) / time(${n(SMALL)} rows) = ${growth.toFixed(2)} (aim ≤ 11); ` +
        `matrix / list at ${n(SMALL)} rows = ${vsList.toFixed(2)} (aim ≤ 2)`,
    );
    if (small.pages < 2 || large.pages !== small.pages)
      failures.push(`${format}: unexpected page counts ${small.pages} / ${large.pages} (the same table is expected)`);
    headlines.push(
      `report matrix ${format}: 1,000 × 50 from ${n(SMALL)} rows ${s(small.ms)} s, ` +
        `${small.peakRssMb?.toFixed(0)} MB peak; 10× rows → ${growth.toFixed(2)}× time ` +
        `(${large.peakRssMb?.toFixed(0)} MB peak); ${vsList.toFixed(2)}× the ${n(SMALL)}-row list`,
    );
  }
  return { failures, headlines };
}
