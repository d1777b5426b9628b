// A worker's cache of template files, keyed by path and the file's identity (mtime, size,
// inode): one stat per job, the file is read again only when it changed. An inherited report's
// base files (read from the template's folder) are part of its identity: a changed base loads
// the template again.

import { closeSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_XML_LIMITS, loadFrx, TemplateError, type LoadFrxResult } from '../../report/index.js';

/** A file's identity: it changed when this changed. */
const identity = (st: { mtimeMs: number; size: number; ino: number }): string => `${st.mtimeMs}:${st.size}:${st.ino}`;

/** One version of a template file, and what is derived from its bytes and safe to reuse across
 *  runs: the loaded report model (a run never changes it; render-pool-model-reuse.test.ts
 *  checks that), loaded on first use. */
export class CachedTemplate {
  private model: LoadFrxResult | undefined;
  /** The base reports read for the model, with their identities then. */
  private bases: { path: string; key: string }[] = [];

  /** `folder`: where an inherited report's base reports are (the template's own folder). */
  constructor(
    readonly bytes: Buffer,
    private readonly folder?: string,
    private readonly maxFileBytes = DEFAULT_XML_LIMITS.maxInputBytes,
  ) {}

  /** The loaded template; a TemplateError when it cannot be loaded (thrown again next time). */
  loaded(): LoadFrxResult {
    if (!this.model) {
      this.bases = [];
      this.model = loadFrx(this.bytes, { baseReport: (name) => this.readBase(name) });
    }
    return this.model;
  }

  /** True when a base report read for the model has changed or gone since. */
  basesChanged(): boolean {
    return this.bases.some((b) => {
      try {
        return identity(statSync(b.path)) !== b.key;
      } catch {
        return true;
      }
    });
  }

  /** Another report of the template's folder, by file name (a DetailReport hyperlink's). */
  readonly readDetail = (name: string): Buffer | undefined => this.readFile(name, false);

  private readBase(name: string): Buffer | undefined {
    return this.readFile(name, true);
  }

  /** A file of the template's folder; `base`: it is part of the loaded model's identity. */
  private readFile(name: string, base: boolean): Buffer | undefined {
    if (this.folder === undefined) return undefined;
    const path = join(this.folder, name);
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return undefined;
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) return undefined;
      if (st.size > this.maxFileBytes)
        throw new TemplateError(`the report "${name}" is larger than ${this.maxFileBytes} bytes`);
      const bytes = readFileSync(fd);
      if (base) this.bases.push({ path, key: identity(st) });
      return bytes;
    } finally {
      closeSync(fd);
    }
  }
}

interface Entry {
  key: string;
  template: CachedTemplate;
}

export interface TemplateCacheOptions {
  /** Most templates kept (least recently used go first; default 64). */
  maxEntries?: number;
  /** Largest template file accepted (default: the .frx reader's input limit). */
  maxFileBytes?: number;
}

export class TemplateCache {
  hits = 0;
  misses = 0;
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly maxFileBytes: number;

  constructor(opts: TemplateCacheOptions = {}) {
    this.maxEntries = opts.maxEntries ?? 64;
    this.maxFileBytes = opts.maxFileBytes ?? DEFAULT_XML_LIMITS.maxInputBytes;
  }

  /** The template at `path`, from the cache when the file has not changed. Throws TemplateError
   *  (without the path: the message may reach a client) when it cannot be read. */
  get(path: string): { template: CachedTemplate; hit: boolean } {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (err) {
      throw new TemplateError(`the template file cannot be read (${codeOf(err)})`);
    }
    try {
      // fstat and read on one descriptor: the key describes the bytes read (a rename in between
      // cannot pair one file's key with another's content).
      const st = fstatSync(fd);
      if (!st.isFile()) throw new TemplateError('the template is not a file');
      if (st.size > this.maxFileBytes)
        throw new TemplateError(`the template file is larger than ${this.maxFileBytes} bytes`);
      const key = identity(st);
      const cached = this.entries.get(path);
      if (cached && cached.key === key && !cached.template.basesChanged()) {
        // Map order is the LRU order: move to the end.
        this.entries.delete(path);
        this.entries.set(path, cached);
        this.hits++;
        return { template: cached.template, hit: true };
      }
      let bytes: Buffer;
      try {
        bytes = readFileSync(fd);
      } catch (err) {
        throw new TemplateError(`the template file cannot be read (${codeOf(err)})`);
      }
      const template = new CachedTemplate(bytes, dirname(path), this.maxFileBytes);
      this.entries.delete(path);
      this.entries.set(path, { key, template });
      while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.misses++;
      return { template, hit: false };
    } finally {
      closeSync(fd);
    }
  }
}

function codeOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : 'I/O error';
}
