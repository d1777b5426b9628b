// The report engine on a generated list report of 1,000 and 10,000 rows (issue 5): pages per
// second, time growing linearly with rows (aim: 10× rows ≤ 11× time) and peak memory (aim
// < 200 MB at 10,000 rows, < 300 MB at 100,000: issue 22). Each size runs in fresh processes
// (peak RSS is per process): the peak is one render's (the first of its size in the process),
// the time the best of the renders after it (warm code); see lib/report-child.js. Then 100,000
// rows to bytes for peak RSS only: through renderDocument as the SRS worker renders them (pages
// written as the engine finishes them), in a fresh process and in a worker thread under the
// render pool's heap limit (512 MB), against renderReport (every page held until the export) in
// a fresh process.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const description = 'report engine: generated list of 1,000 and 10,000 rows → HTML';

const CHILD = fileURLToPath(new URL('./lib/report-child.js', import.meta.url));

/** `processes` fresh processes of `renders` timed renders each: the best time, the highest peak. */
function measure(rows, processes, renders, mode = 'string', flags = []) {
  const runs = Array.from({ length: processes }, () => {
    const out = execFileSync(process.execPath, [CHILD, String(rows), String(renders), mode, ...flags], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    return JSON.parse(out.trim().split('\n').at(-1));
  });
  const best = runs.reduce((b, r) => (r.ms < b.ms ? r : b));
  return {
    ...best,
    peakRssMb: Math.max(...runs.map((r) => r.peakRssMb ?? 0)),
    firstMs: Math.min(...runs.map((r) => r.firstMs)),
  };
}

export async function run({ options, log }) {
  const processes = Math.max(2, Math.min(5, options.rounds));
  // The same number of timed renders for both sizes: the best of more samples favours the size
  // that gets them.
  const small = measure(1_000, processes, 4);
  const large = measure(10_000, processes, 4);
  // Memory only (one process each, its first render, no timed ones): 100,000 rows as the SRS
  // worker renders them, to bytes (~5 s each).
  const huge = measure(100_000, 1, 0, 'document');
  const hugeInWorker = measure(100_000, 1, 0, 'document', ['--worker=512']);
  const hugeHeld = measure(100_000, 1, 0, 'bytes');
  for (const r of [small, large]) {
    log(
      `${String(r.rows).padStart(6)} rows: ${r.pages} pages in ${r.ms.toFixed(0)} ms ` +
        `= ${((r.pages * 1000) / r.ms).toFixed(0)} pages/s ` +
        (`(first render ${r.firstMs.toFixed(0)} ms), ${(r.bytes / 1e6).toFixed(1)} MB HTML, peak ` +
          `RSS ${r.peakRssMb.toFixed(0)} MB`),
    );
  }
  log(
    `${String(huge.rows).padStart(6)} rows (to bytes, renderDocument as the SRS worker): ${huge.pages} pages, ` +
      `${(huge.bytes / 1e6).toFixed(1)} MB HTML, peak RSS ${huge.peakRssMb.toFixed(0)} MB (first render ` +
      `${(huge.firstMs / 1000).toFixed(1)} s); in a worker (heap limit 512 MB) ` +
      `${hugeInWorker.peakRssMb.toFixed(0)} MB; renderReport (pages held) ${hugeHeld.peakRssMb.toFixed(0)} MB ` +
      `(${(hugeHeld.firstMs / 1000).toFixed(1)} s)`,
  );
  const growth = large.ms / small.ms;
  log(
    `time(10,000) / time(1,000) = ${growth.toFixed(2)} (aim ≤ 11); peak RSS at 10,000 ` +
      `rows ${large.peakRssMb.toFixed(0)} MB (aim < 200)`,
  );
  const failures = [];
  if (small.pages < 2 || large.pages <= small.pages)
    failures.push(`unexpected page counts ${small.pages} / ${large.pages}`);
  if (large.warnings > 0 || small.warnings > 0) failures.push('the generated report produced warnings');
  if (huge.bytes !== hugeHeld.bytes || hugeInWorker.bytes !== hugeHeld.bytes)
    failures.push(`renderDocument wrote ${huge.bytes} bytes, renderReport ${hugeHeld.bytes}`);
  return {
    failures,
    headlines: [
      `report engine: 10× rows → ${growth.toFixed(2)}× time, ` +
        `${((large.pages * 1000) / large.ms).toFixed(0)} pages/s, ${large.peakRssMb.toFixed(0)} MB peak at 10,000 ` +
        `rows; 100,000 rows to bytes: ${hugeInWorker.peakRssMb.toFixed(0)} MB in a worker, ` +
        `${huge.peakRssMb.toFixed(0)} MB in a process (renderReport ${hugeHeld.peakRssMb.toFixed(0)} MB)`,
    ],
  };
}
