// The report engine on a generated list report of 1,000 and 10,000 rows (issue 5): pages per
// second, time growing linearly with rows (aim: 10× rows ≤ 11× time) and peak memory (aim
// < 300 MB at 10,000 rows). Each size runs in its own process (peak RSS is per process).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const description = 'report engine: generated list of 1,000 and 10,000 rows → HTML';

const CHILD = fileURLToPath(new URL('./lib/report-child.js', import.meta.url));

/** One render per fresh process (so the peak is one render's), best time of `repeats` processes. */
function measure(rows, repeats) {
  const runs = Array.from({ length: repeats }, () => {
    const out = execFileSync(process.execPath, [CHILD, String(rows), '1'], { encoding: 'utf8', maxBuffer: 1 << 20 });
    return JSON.parse(out.trim().split('\n').at(-1));
  });
  return runs.reduce((best, r) => (r.ms < best.ms ? r : best));
}

export async function run({ options, log }) {
  const repeats = Math.max(2, Math.min(5, options.rounds));
  const small = measure(1_000, repeats);
  const large = measure(10_000, repeats);
  for (const r of [small, large]) {
    log(`${String(r.rows).padStart(6)} rows: ${r.pages} pages in ${r.ms.toFixed(0)} ms = ${((r.pages * 1000) / r.ms).toFixed(0)} pages/s, ${(r.bytes / 1e6).toFixed(1)} MB HTML, peak RSS ${r.peakRssMb?.toFixed(0)} MB`);
  }
  const growth = large.ms / small.ms;
  log(`time(10,000) / time(1,000) = ${growth.toFixed(2)} (aim ≤ 11); peak RSS at 10,000 rows ${large.peakRssMb?.toFixed(0)} MB (aim < 300)`);
  const failures = [];
  if (small.pages < 2 || large.pages <= small.pages) failures.push(`unexpected page counts ${small.pages} / ${large.pages}`);
  if (large.warnings > 0 || small.warnings > 0) failures.push('the generated report produced warnings');
  return { failures, summary: [`report engine: 10× rows → ${growth.toFixed(2)}× time, ${large.peakRssMb?.toFixed(0)} MB peak at 10,000 rows`] };
}
