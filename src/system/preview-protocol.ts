// Messages between the preview pool (main thread) and a preview worker, over the worker's
// parentPort. A worker announces `ready` once its modules are loaded; the pool sends it one
// `preview` at a time and gets exactly one `done` or `failed` back for it. The answer's bytes
// travel in the transfer list (moved, not copied).

import type { PreviewType } from './markdown.js';

/** Free bytes before and after a preview's JSON (PreviewJson), where an answer's envelope can
 *  go without copying the JSON: room for the head of the envelope with the longest request id. */
export const JSON_HEADROOM = 512;
export const JSON_TAILROOM = 16;

/** A preview's HTML as a JSON string literal in UTF-8: bytes[start, end), with at least
 *  JSON_HEADROOM free bytes before `start` and JSON_TAILROOM after `end`. */
export interface PreviewJson {
  bytes: Buffer;
  start: number;
  end: number;
}

export interface PreviewRequest {
  type: 'preview';
  id: number;
  source: string;
  format: PreviewType;
}

export type PreviewReply =
  | { type: 'ready' }
  /** The HTML as a JSON string literal, UTF-8, in bytes[start, end) (see PreviewJson). */
  | { type: 'done'; id: number; bytes: Uint8Array; start: number; end: number }
  | { type: 'failed'; id: number; message: string; stack?: string };
