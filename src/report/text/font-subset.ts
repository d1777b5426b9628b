// Font subsets for documents that carry their fonts (the HTML export's embedFonts): only the
// glyphs of the characters a document draws with a face, so one Chinese character embeds a few
// kilobytes of Noto Sans SC rather than its 10 MB.
//
// HarfBuzz's hb-subset (the npm package harfbuzzjs, its WebAssembly build) does the work. That
// module needs no imports, so it is instantiated synchronously, once, when first needed: the
// exporters are synchronous. Its output is an sfnt with the tables a browser requires (cmap,
// OS/2, name, post …) and every kept glyph's advance as in the source file. fontkit's own
// createSubset is not used: its TrueType subsets have no cmap, which browsers refuse.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FontFace } from './font-faces.js';
import { sfntBytes } from './web-fonts.js';

interface HbSubset {
  memory: { buffer: ArrayBuffer };
  _initialize(): void;
  malloc(n: number): number;
  free(p: number): void;
  hb_blob_create(data: number, length: number, mode: number, user: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, lengthOut: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_unicode_set(input: number): number;
  hb_set_add(set: number, cp: number): void;
  hb_subset_or_fail(face: number, input: number): number;
}

const HB_MEMORY_MODE_READONLY = 1;

// The compiler's libraries here have no WebAssembly types (no DOM lib): the two constructors used.
const wasm = (
  globalThis as unknown as {
    WebAssembly: { Module: new (bytes: Uint8Array) => object; Instance: new (m: object) => { exports: object } };
  }
).WebAssembly;

let hb: HbSubset | undefined;

function harfbuzz(): HbSubset {
  if (!hb) {
    const path = createRequire(import.meta.url).resolve('harfbuzzjs/dist/harfbuzz-subset.wasm');
    const instance = new wasm.Instance(new wasm.Module(readFileSync(path)));
    const exports = instance.exports as unknown as HbSubset;
    exports._initialize();
    hb = exports;
  }
  return hb;
}

/** The sfnt of each face, kept while the process lives (the faces themselves are singletons). */
const sources = new WeakMap<FontFace, Buffer>();

/**
 * A TrueType font holding the glyphs of `codePoints` from the face's file (and .notdef). Throws
 * when HarfBuzz cannot subset the file.
 */
export function subsetFace(face: FontFace, codePoints: Iterable<number>): Buffer {
  let source = sources.get(face);
  if (!source) {
    source = sfntBytes(face);
    sources.set(face, source);
  }
  const h = harfbuzz();
  const data = h.malloc(source.length);
  if (data === 0) throw new Error(`no memory to subset ${face.name}`);
  new Uint8Array(h.memory.buffer, data, source.length).set(source);
  const blob = h.hb_blob_create(data, source.length, HB_MEMORY_MODE_READONLY, 0, 0);
  const input = h.hb_subset_input_create_or_fail();
  const hbFace = h.hb_face_create(blob, 0);
  let subset = 0;
  let result = 0;
  try {
    if (input === 0) throw new Error(`HarfBuzz could not start a subset of ${face.name}`);
    const set = h.hb_subset_input_unicode_set(input);
    for (const cp of codePoints) h.hb_set_add(set, cp);
    subset = h.hb_subset_or_fail(hbFace, input);
    if (subset === 0) throw new Error(`HarfBuzz could not subset ${face.name}`);
    result = h.hb_face_reference_blob(subset);
    const length = h.hb_blob_get_length(result);
    const at = h.hb_blob_get_data(result, 0);
    // Copied out: the module's memory is reused (and may move when it grows) by the next call.
    return Buffer.from(new Uint8Array(h.memory.buffer, at, length));
  } finally {
    if (result) h.hb_blob_destroy(result);
    if (subset) h.hb_face_destroy(subset);
    h.hb_face_destroy(hbFace);
    if (input) h.hb_subset_input_destroy(input);
    h.hb_blob_destroy(blob);
    h.free(data);
  }
}
