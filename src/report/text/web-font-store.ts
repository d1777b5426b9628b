// WOFF2 of the faces for a server to answer with, made on demand and kept: anyone may ask for
// any face (the route is public), so what a caller can cost is bounded here.
//
// - One compression at a time, on a worker thread of its own below the event loop's priority
//   (wawoff2 is synchronous WebAssembly: a face takes a core for 1 s, Noto Sans SC 20 s and
//   200 MB). At most `maxWaiting` more faces wait; a request for another face is refused then
//   (the caller answers 503 and comes back later), while one for a face already running or
//   waiting shares that compression.
// - Every face compressed is kept, up to `maxBytes` of WOFF2 together, so each is compressed
//   once per process. The set of faces is finite (the npm faces and the font directories' regular
//   faces, at most 400); their WOFF2 is about half the size of their files, and the default
//   budget holds the npm faces and all of Debian's Noto faces several times over. A face past
//   the budget is served and not kept.
//
// Made at first request, not at build or start: the 28 npm faces alone would take an estimated
// 90 s of CPU on every install or start, for faces most reports never use.

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { FontFace } from './font-faces.js';

const requireFromHere = createRequire(import.meta.url);

/** Makes the WOFF2 of one face. */
export type Woff2Compressor = (face: FontFace) => Promise<Buffer>;

export interface WebFontStoreOptions {
  /** Faces that may wait while one is compressed (default 16; with none running, one more). */
  maxWaiting?: number;
  /** Most bytes of WOFF2 kept (default 128 MB). */
  maxBytes?: number;
  /** Makes the WOFF2 (default: wawoff2 on a worker thread). */
  compress?: Woff2Compressor;
}

export interface WebFontStoreStats {
  /** Compressions started so far. */
  compressions: number;
  /** Faces waiting for the compressor. */
  waiting: number;
  /** Faces kept, and their bytes. */
  kept: number;
  keptBytes: number;
}

export const DEFAULT_WEB_FONT_MAX_WAITING = 16;
export const DEFAULT_WEB_FONT_MAX_BYTES = 128 * 1024 * 1024;

// The worker's whole program: lower its thread's priority (Linux: a thread is a task, so this
// lowers the worker alone; elsewhere it would lower the process), read the file, unwrap WOFF
// 1.0, compress, hand the bytes back. wawoff2 returns a view into its WebAssembly memory, which
// the next call overwrites: copied.
const COMPRESS_PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const os = require('node:os');
if (process.platform === 'linux') {
  try { os.setPriority(0, os.constants.priority.PRIORITY_BELOW_NORMAL); } catch {}
}
let bytes = readFileSync(workerData.path);
if (workerData.woff) bytes = require(workerData.sfntLib).toSfnt(bytes);
require(workerData.wawoff2).compress(bytes).then((out) => {
  const copy = new Uint8Array(out);
  parentPort.postMessage(copy, [copy.buffer]);
});`;

/** The face's WOFF2, made by wawoff2 on a worker thread that ends with it. */
export function compressOnWorker(face: FontFace): Promise<Buffer> {
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

interface Waiting {
  face: FontFace;
  resolve(bytes: Buffer): void;
  reject(err: unknown): void;
}

export class WebFontStore {
  private readonly maxWaiting: number;
  private readonly maxBytes: number;
  private readonly compress: Woff2Compressor;
  private readonly kept = new Map<FontFace, Buffer>();
  private keptBytes = 0;
  /** The faces being compressed or waiting, with the promise their callers share. */
  private readonly pending = new Map<FontFace, Promise<Buffer>>();
  private readonly queue: Waiting[] = [];
  private running = false;
  private compressions = 0;
  private held = false;

  constructor(opts: WebFontStoreOptions = {}) {
    this.maxWaiting = opts.maxWaiting ?? DEFAULT_WEB_FONT_MAX_WAITING;
    this.maxBytes = opts.maxBytes ?? DEFAULT_WEB_FONT_MAX_BYTES;
    this.compress = opts.compress ?? compressOnWorker;
  }

  /** The face as WOFF2; undefined when `maxWaiting` other faces already wait (come back later). */
  woff2(face: FontFace): Promise<Buffer> | undefined {
    const kept = this.kept.get(face);
    if (kept) return Promise.resolve(kept);
    const pending = this.pending.get(face);
    if (pending) return pending;
    // The one being compressed and those waiting.
    if (this.pending.size > this.maxWaiting) return undefined;
    const made = new Promise<Buffer>((resolve, reject) => this.queue.push({ face, resolve, reject }));
    this.pending.set(face, made);
    this.next();
    return made;
  }

  /** The face's WOFF2 when it is made and kept, else undefined: never waits. */
  keptWoff2(face: FontFace): Buffer | undefined {
    return this.kept.get(face);
  }

  /** Has the face compressed unless it is kept, running or waiting, without waiting for it; when
   *  `maxWaiting` faces already wait it is left for a later call. A failure is dropped: the
   *  next call tries again. */
  prepare(face: FontFace): void {
    if (this.kept.has(face)) return;
    this.woff2(face)?.catch(() => undefined);
  }

  /** Tests: no compression starts until the returned release is called, so a test sees a full
   *  queue by construction rather than by timing. */
  hold(): () => void {
    this.held = true;
    return () => {
      this.held = false;
      this.next();
    };
  }

  stats(): WebFontStoreStats {
    return {
      compressions: this.compressions,
      waiting: this.queue.length,
      kept: this.kept.size,
      keptBytes: this.keptBytes,
    };
  }

  private next(): void {
    if (this.running || this.held) return;
    const job = this.queue.shift();
    if (!job) return;
    this.running = true;
    this.compressions++;
    // A compressor that throws at once (a font file gone) fails this face, not the queue.
    const made = new Promise<Buffer>((resolve) => resolve(this.compress(job.face)));
    // Settled before the callers hear of it: one asking again then finds the face kept (or,
    // past the budget or after a failure, starts anew), never a finished compression.
    const done = () => {
      this.pending.delete(job.face);
      this.running = false;
    };
    made.then(
      (bytes) => {
        done();
        if (this.keptBytes + bytes.length <= this.maxBytes) {
          this.kept.set(job.face, bytes);
          this.keptBytes += bytes.length;
        }
        job.resolve(bytes);
        this.next();
      },
      (err: unknown) => {
        done();
        job.reject(err);
        this.next();
      },
    );
  }
}

/** The process's store: the faces and the compressing thread are the process's too. */
export const webFonts = new WebFontStore();
