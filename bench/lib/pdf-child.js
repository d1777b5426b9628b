// Renders the generated list report of N rows to PDF in a fresh process (template + data →
// PDF bytes, everything included, through renderDocument as the SRS render worker does) and
// prints one JSON line: the process's peak RSS over the FIRST render of that size (read right
// after it, as report-child.js does: later renders would add their garbage to the heap), the
// best time of it and `repeats` further renders, pages and PDF size. With a third argument, also
// writes our HTML of the same report there (what Chromium prints in the comparison) and the PDF
// next to it.
//
//   node pdf-child.js ROWS [REPEATS] [HTML_OUT] [--worker=MB] [--api=report]
//
// --worker=MB: render in a worker thread with the render pool's resource limit
// (maxOldGenerationSizeMb = MB, Settings:RenderMemoryMb), as the server does; the peak is still
// the whole process's. --api=report: renderReport (every page held until the export), to compare.
import { writeFileSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import { childArgs, peakRssMb, printMeasured } from './child-output.js';
import { listTemplate, listData } from './report-fixture.js';

const { flags, positional } = childArgs();
const [rowsArg, repeatsArg, htmlOut] = positional;
const rows = Number(rowsArg);
const repeats = Number(repeatsArg ?? 3);

async function measure() {
  // Imported here: in --worker mode the main thread does not load the engine (its memory would
  // count in the process's peak).
  const { exportPdfSync, renderDocument, renderReport } = await import('../../dist/report/index.js');
  const render = (workerData?.api ?? flags.get('api')) === 'report' ? renderReport : renderDocument;
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
    render({ template, data: { json: warmJson }, format: 'pdf', now });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (ms < warmBest * 0.97) {
      warmBest = ms;
      stale = 0;
    } else stale++;
  }

  const timed = () => {
    const t0 = process.hrtime.bigint();
    const result = render({ template, data: { json }, format: 'pdf', now });
    return { result, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
  };
  const first = timed();
  const peak = peakRssMb();
  const measured = {
    rows,
    ms: first.ms,
    firstMs: first.ms,
    pages: first.result.pages,
    bytes: first.result.output.length,
    peakRssMb: peak,
    warnings: first.result.warnings.length,
  };
  if (htmlOut) {
    // Written after the peak was read, so the HTML render does not count towards it.
    writeFileSync(`${htmlOut}.pdf`, first.result.output);
    writeFileSync(htmlOut, renderReport({ template, data: { json }, format: 'html', now }).output);
  }
  first.result = null;
  for (let i = 0; i < repeats; i++) measured.ms = Math.min(measured.ms, timed().ms);
  // The exporter alone (prepared report → PDF bytes), best of as many runs (after the peak was
  // read): the part of the time that is the PDF writer's.
  if (repeats > 0) {
    const { prepared } = renderReport({ template, data: { json }, format: 'pdf', now });
    measured.exportMs = Infinity;
    for (let i = 0; i < repeats; i++) {
      const t0 = process.hrtime.bigint();
      exportPdfSync(prepared, { creationDate: now });
      measured.exportMs = Math.min(measured.exportMs, Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  return measured;
}

await printMeasured(import.meta.url, flags, measure, { api: flags.get('api') });
