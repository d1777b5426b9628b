// The face files as web fonts: content-addressed names and WOFF2 bytes for a server to answer
// with, so a browser draws HTML reports with the very files the engine measured with.
//
// WOFF2 is made lazily, on the first request for a face, and kept in a bounded in-process cache:
// all 28 faces would take an estimated 90 s to compress (Noto Sans SC alone 20 s per weight), which `npm ci`
// would pay on every install for faces most reports never use, while a Latin face takes about
// 1 s. Compression runs on a worker thread of its own (wawoff2 is synchronous WebAssembly: on
// the caller's thread it would stop a server's event loop for that long), one face at a time.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { FACE_FAMILIES, type FontFace, SCRIPT_FAMILIES } from './font-faces.js';
import { extraFaces } from './font-dirs.js';
import { getFace } from './fonts.js';

const requireFromHere = createRequire(import.meta.url);

/** Names the encoder in each file's hash: a new encoder gives new bytes, so new names (the files
 *  are served as immutable). */
const ENCODER = 'wawoff2@2';

/** Every face the engine can draw with (the script fonts have no italic), directories' included. */
export function allFaces(): FontFace[] {
  const out: FontFace[] = [];
  const scripts: readonly string[] = SCRIPT_FAMILIES;
  for (const family of FACE_FAMILIES)
    for (const bold of [false, true])
      for (const italic of scripts.includes(family) ? [false] : [false, true]) out.push(getFace(family, bold, italic));
  out.push(...extraFaces());
  return out;
}

/** "Noto Sans SC" bold → "noto-sans-sc-bold"; regular faces end in "-regular". */
export function faceSlug(face: FontFace): string {
  const style = face.bold ? (face.italic ? 'bold-italic' : 'bold') : face.italic ? 'italic' : 'regular';
  // A directory's file names may hold anything: only letters and hyphens go into the slug.
  const family = face.family
    .toLowerCase()
    .replace(/[^a-z]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 30);
  return `${family}-${style}`;
}

/** The face's source file as an sfnt (TrueType): what hb-subset and the WOFF2 encoder read.
 *  DejaVu Sans comes as WOFF 1.0 (zlib-compressed tables), the others as .ttf. */
export function sfntBytes(face: FontFace, bytes: Buffer = face.buffer()): Buffer {
  if (face.format !== 'woff') return bytes;
  const { toSfnt } = requireFromHere('woff2sfnt-sfnt2woff') as { toSfnt(woff: Buffer): Buffer };
  return toSfnt(bytes);
}

const hashes = new Map<FontFace, string>();

/** 16 hex digits of the SHA-256 of the face's source file and the encoder. */
export function webFontHash(face: FontFace): string {
  let h = hashes.get(face);
  if (h === undefined) {
    // A face the engine has not loaded is read for the hash and not kept (Noto Sans SC is 10 MB).
    const bytes = face.isLoaded ? face.buffer() : readFileSync(face.path);
    h = createHash('sha256').update(ENCODER).update(bytes).digest('hex').slice(0, 16);
    hashes.set(face, h);
  }
  return h;
}

/** The file name a face is served under: "arimo-bold.0123456789abcdef.woff2". */
export function webFontFileName(face: FontFace): string {
  return `${faceSlug(face)}.${webFontHash(face)}.woff2`;
}

/** The face a served file name stands for (undefined for an unknown name or an old hash). */
export function webFontByFileName(fileName: string): FontFace | undefined {
  const m = /^([a-z-]{1,40})\.([0-9a-f]{16})\.woff2$/.exec(fileName);
  if (!m) return undefined;
  const face = allFaces().find((f) => faceSlug(f) === m[1]);
  return face && webFontHash(face) === m[2] ? face : undefined;
}

/** The faces whose files are worth a `unicode-range`: big script fonts only used for the
 *  characters the others lack. */
export function isScriptFace(face: FontFace): boolean {
  return (SCRIPT_FAMILIES as readonly string[]).includes(face.family) || face.fromDirectory;
}

// The worker's whole program: read the file, unwrap WOFF 1.0, compress, hand the bytes back.
// wawoff2 returns a view into its WebAssembly memory, which the next call overwrites: copied.
const COMPRESS_PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
let bytes = readFileSync(workerData.path);
if (workerData.woff) bytes = require(workerData.sfntLib).toSfnt(bytes);
require(workerData.wawoff2).compress(bytes).then((out) => {
  const copy = new Uint8Array(out);
  parentPort.postMessage(copy, [copy.buffer]);
});`;

function compressOnWorker(face: FontFace): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(COMPRESS_PROGRAM, {
      eval: true,
      workerData: {
        path: face.path,
        woff: face.format === 'woff',
        sfntLib: requireFromHere.resolve('woff2sfnt-sfnt2woff'),
        wawoff2: requireFromHere.resolve('wawoff2'),
      },
    });
    worker.once('message', (out: Uint8Array) => {
      resolve(Buffer.from(out.buffer, out.byteOffset, out.byteLength));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`WOFF2 compression of ${face.name} stopped (exit ${code})`)));
  });
}

/** Most bytes of WOFF2 kept: every face together comes to an estimated 16 MB, so in practice all stay. */
export const WEB_FONT_CACHE_BYTES = 32 * 1024 * 1024;

const cache = new Map<FontFace, Promise<Buffer>>();
const sizes = new Map<FontFace, number>();
let cachedBytes = 0;
// One compression at a time: each takes a core (and Noto Sans SC 200 MB of memory) for seconds.
let queue: Promise<unknown> = Promise.resolve();

/** The face as WOFF2 (compressed on first use; concurrent callers share one compression). */
export function woff2Bytes(face: FontFace): Promise<Buffer> {
  const hit = cache.get(face);
  if (hit) {
    // Most recently used last: the oldest entry is the one evicted.
    cache.delete(face);
    cache.set(face, hit);
    return hit;
  }
  const made = queue.then(() => compressOnWorker(face));
  queue = made.catch(() => undefined);
  cache.set(face, made);
  made.then(
    (bytes) => {
      if (cache.get(face) !== made) return;
      sizes.set(face, bytes.length);
      cachedBytes += bytes.length;
      for (const [old] of cache) {
        if (cachedBytes <= WEB_FONT_CACHE_BYTES || old === face) break;
        evict(old);
      }
    },
    () => {
      if (cache.get(face) === made) cache.delete(face);
    },
  );
  return made;
}

function evict(face: FontFace): void {
  cache.delete(face);
  cachedBytes -= sizes.get(face) ?? 0;
  sizes.delete(face);
}
