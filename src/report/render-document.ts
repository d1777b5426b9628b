// renderDocument: renderReport for a caller that needs only the document (the SRS render worker).
// A PDF's pages, or an HTML document's as bytes (htmlAsBytes: the head, made from all pages, is
// written last and put in front), are written as the engine finishes them
// (engine/page-stream.ts), so the memory does not grow with the page count; the bytes are
// renderReport's, streamed or not.

import { runReport } from './engine/engine.js';
import { streamBlocker, StreamRestart } from './engine/page-stream.js';
import { RenderOutputTooLargeError } from './errors.js';
import type { PreparedPage, PreparedReport } from './engine/prepared.js';
import { HtmlBytesStream } from './export/html.js';
import { PdfWriter } from './export/pdf/index.js';
import { loadFrx } from './frx/index.js';
import {
  bindRun,
  type DocumentResult,
  htmlExportOptions,
  pdfExportOptions,
  type PreparedRun,
  type RenderOptions,
  renderReport,
} from './render.js';

/** renderReport's document, pages and warnings, without the prepared pages: the same output, but
 *  a PDF's or an HTML document's (as bytes) pages are written as the engine finishes them
 *  (engine/page-stream.ts) when the report allows it, so a 100,000-row report does not hold its
 *  half a million items at once. */
export function renderDocument(opts: RenderOptions): DocumentResult {
  if (opts.format === 'pdf' || (opts.format === 'html' && opts.htmlAsBytes)) {
    const template =
      typeof opts.template === 'string' || Buffer.isBuffer(opts.template) ? loadFrx(opts.template) : opts.template;
    const loaded = { ...opts, template };
    if (streamBlocker(template.report) === undefined) {
      const streamed = opts.format === 'pdf' ? streamPdf(loaded) : streamHtml(loaded);
      if (streamed) return streamed;
    }
    opts = loaded;
  }
  const { prepared: _, ...result } = renderReport(opts);
  return result;
}

/** How many documents were written page by page (tests see which way a render went). */
export const streamedRenders = { pdf: 0, html: 0 };

/** A page writer for a streamed run: `add` takes each page as the engine finishes it, `end` the
 *  document once the run is over (undefined: it cannot be used, renderReport's way then). */
interface StreamedExport {
  add(page: PreparedPage): void;
  /** The document's bytes so far. */
  size(): number;
  end(prepared: PreparedReport): Buffer | undefined;
}

/** The run with its pages streamed to the exporter `make` gives; undefined when the run found it
 *  cannot stream after all (StreamRestart) or the exporter refused its document. */
function streamRun(opts: RenderOptions, make: (run: PreparedRun) => StreamedExport): DocumentResult | undefined {
  const { report, data, engine, warnings } = bindRun(opts);
  const run: PreparedRun = { prepared: { pages: [] }, warnings, info: report.reportInfo };
  if (engine.culture) run.culture = engine.culture.name;
  const exporter = make(run);
  const max = opts.maxOutputBytes;
  const onPage = (page: PreparedPage): void => {
    // Links inside the document need their targets' pages (streamBlocker; a script may still
    // make one).
    for (const it of page.items)
      if (it.hyperlink && it.hyperlink.kind !== 'url') throw new StreamRestart('a link inside the document');
    exporter.add(page);
    if (max !== undefined && exporter.size() > max) throw new RenderOutputTooLargeError(max);
  };
  let prepared: PreparedReport;
  try {
    prepared = runReport(report, data, { ...engine, onPage }, warnings);
  } catch (e) {
    if (e instanceof StreamRestart) return undefined;
    throw e;
  }
  const output = exporter.end(prepared);
  if (!output) return undefined;
  return {
    output,
    pages: prepared.pages.length,
    truncated: prepared.truncated === true,
    warnings: [...warnings.list],
  };
}

/** The PDF written page by page as the engine gives them. */
function streamPdf(opts: RenderOptions): DocumentResult | undefined {
  const result = streamRun(opts, (run) => {
    // No report for the writer: it has no links inside the document nor an outline to make
    // (streamBlocker; one a script makes is caught by streamRun or the engine).
    const writer = new PdfWriter(pdfExportOptions(run, opts.now));
    const chunks: Buffer[] = [];
    let size = 0;
    return {
      add: (page) => {
        writer.addPage(page);
        for (const c of writer.take()) {
          chunks.push(c);
          size += c.length;
        }
      },
      size: () => size,
      end: () => {
        writer.end();
        for (const c of writer.take()) chunks.push(c);
        return Buffer.concat(chunks);
      },
    };
  });
  if (result) streamedRenders.pdf++;
  return result;
}

/** The HTML document's bytes written page by page as the engine gives them, the head last
 *  (export/html.ts HtmlBytesStream). */
function streamHtml(opts: RenderOptions): DocumentResult | undefined {
  const result = streamRun(opts, (run) => {
    const html = new HtmlBytesStream(htmlExportOptions(run, opts));
    return { add: (page) => html.addPage(page), size: () => html.size, end: (prepared) => html.end(prepared) };
  });
  if (result) streamedRenders.html++;
  return result;
}
