// Renders a generated list report of N rows in a fresh process and prints one JSON line: the
// process's peak RSS over ONE render (read right after it), then the time per render once the
// code is warm (best of `repeats` further renders), pages and output size.
//
// Why two figures from different renders: the first render of a size is the one whose peak
// memory a server sees (later renders in the same process add the garbage of the earlier ones
// to the heap), while its time still includes the JIT compiling the engine's hot paths (a
// 1,000-row report's first render takes several times as long as its next ones), which would
// make "time grows linearly with rows" meaningless.
//
//   node report-child.js ROWS [REPEATS] [string|bytes|document] [--worker=MB]
//
// 'bytes': the document as UTF-8 bytes (htmlAsBytes) from renderReport, every page held until the
// export; 'document': the same bytes as the SRS render worker makes them, renderDocument (pages
// written as the engine finishes them). --worker=MB: render in a worker thread with the render
// pool's resource limit (maxOldGenerationSizeMb = MB), as the server does; the peak is still the
// whole process's.
import { childArgs, peakRssMb, printMeasured } from './child-output.js';
import { listTemplate, listData } from './report-fixture.js';

const { flags, positional } = childArgs();
const [rowsArg, repeatsArg, mode] = positional;
const rows = Number(rowsArg);
const repeats = Number(repeatsArg ?? 3);
const htmlAsBytes = mode === 'bytes' || mode === 'document';

async function measure() {
  // Imported here: in --worker mode the main thread does not load the engine (its memory would
  // count in the process's peak).
  const { renderDocument, renderReport } = await import('../../dist/report/index.js');
  const renderer = mode === 'document' ? renderDocument : renderReport;
  const template = listTemplate();
  const json = listData(rows);
  const now = new Date(Date.UTC(2026, 0, 1));

  const render = () => {
    const t0 = process.hrtime.bigint();
    const result = renderer({ template, data: { json }, format: 'html', now, htmlAsBytes });
    return { result, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
  };

  // A small report first, as a server has rendered something before (the fonts are loaded, the
  // engine's code is compiled once).
  renderer({ template, data: { json: listData(300) }, format: 'html', htmlAsBytes });

  const first = render();
  const peak = peakRssMb();
  // Only the figures of the first render are kept: holding its report and document while the
  // next ones are timed would give each of them a heap one whole report larger than a server's
  // (whose earlier responses are gone), which costs the 10,000-row render more than the 1,000.
  const shown = {
    firstMs: first.ms,
    pages: first.result.pages,
    bytes: Buffer.byteLength(first.result.output),
    warnings: first.result.warnings.length,
  };
  let best = first.ms;
  first.result = null;
  // (No forced gc() between them: a full collection of that kind drops compiled code, and the
  // next render is then timed on the interpreter again.)
  for (let i = 0; i < repeats; i++) best = Math.min(best, render().ms);
  return { rows, ms: best, ...shown, peakRssMb: peak };
}

await printMeasured(import.meta.url, flags, measure);
