// Prepared pages → a vector PDF: real text in subset-embedded fonts (the font service's files),
// at the positions the engine laid out; see README.md in this folder.
//
// Three ways to get it:
// - exportPdfSync: one Buffer, synchronously (renderReport uses it; the work is CPU-bound and
//   pdfkit never waits for anything, so a Promise would only hide that);
// - exportPdf: the same as a Promise, yielding to the event loop between pages;
// - exportPdfToStream: written to a stream page by page, waiting for 'drain' when the stream is
//   full, so memory does not grow with the page count.

import type { Writable } from 'node:stream';
import type { PreparedReport } from '../../engine/prepared.js';
import { PdfWriter, type PdfExportOptions } from './document.js';

export type { PdfExportOptions } from './document.js';
export { PdfWriter } from './document.js';

export function exportPdfSync(report: PreparedReport, options: PdfExportOptions = {}): Buffer {
  const w = new PdfWriter(options, report);
  const chunks: Buffer[] = [];
  for (const page of report.pages) {
    w.addPage(page);
    chunks.push(...w.take());
  }
  w.end();
  chunks.push(...w.take());
  return Buffer.concat(chunks);
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function exportPdf(report: PreparedReport, options: PdfExportOptions = {}): Promise<Buffer> {
  const w = new PdfWriter(options, report);
  const chunks: Buffer[] = [];
  for (const page of report.pages) {
    w.addPage(page);
    chunks.push(...w.take());
    await nextTurn();
  }
  w.end();
  chunks.push(...w.take());
  return Buffer.concat(chunks);
}

export interface PdfStreamOptions extends PdfExportOptions {
  /** End the stream when the PDF is complete (default true; false for process.stdout). */
  end?: boolean;
}

const CLOSED = 'the output stream was closed before the PDF was complete';

/** Waits for `event`; an error or a close before it rejects. */
function waitFor(stream: Writable, event: 'drain' | 'finish'): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error): void => {
      stream.off(event, onEvent);
      stream.off('error', onError);
      stream.off('close', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onEvent = (): void => done();
    const onError = (e: Error): void => done(e);
    const onClose = (): void => done(new Error(CLOSED));
    stream.on(event, onEvent);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}

async function write(stream: Writable, chunks: Buffer[]): Promise<void> {
  for (const c of chunks) {
    if (stream.destroyed || stream.writableEnded) throw new Error(CLOSED);
    if (!stream.write(c)) await waitFor(stream, 'drain');
  }
}

/** Writes the PDF to `stream` page by page. Resolves once everything is handed to the stream
 *  (and the stream has finished, when it is ended here). */
export async function exportPdfToStream(
  report: PreparedReport,
  stream: Writable,
  options: PdfStreamOptions = {},
): Promise<void> {
  const w = new PdfWriter(options, report);
  for (const page of report.pages) {
    w.addPage(page);
    await write(stream, w.take());
  }
  w.end();
  await write(stream, w.take());
  if (options.end ?? true) {
    const finished = waitFor(stream, 'finish');
    stream.end();
    await finished;
  }
}
