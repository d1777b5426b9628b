// A worker's cache of template files, keyed by path and the file's identity (mtime, size,
// inode): one stat per job, the file is read again only when it changed. An inherited report's
// base files (read from the template's folder) are part of its identity: a changed base loads
// the template again. So are the files a template names beside it (map shapefiles, CSV files).
// Every file a template names (base and detail reports, shapefiles, CSV files) is read only
// inside its resource folder, by real path (confined-path.ts); of the files beside it, only
// those kinds.

import { closeSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { DEFAULT_XML_LIMITS, loadFrx, TemplateError, type LoadFrxResult } from '../../report/index.js';
import { confinedRealPath } from './confined-path.js';

/** The kinds of file a template may name beside it: map shapefiles and CSV data. */
const RESOURCE_EXTENSIONS = new Set(['.shp', '.dbf', '.csv', '.txt']);

/** The identity of a file that was not there. */
const MISSING = 'missing';

/** A file's identity: it changed when this changed. */
const identity = (st: { mtimeMs: number; size: number; ino: number }): string => `${st.mtimeMs}:${st.size}:${st.ino}`;

/** One version of a template file, and what is derived from its bytes and safe to reuse across
 *  runs: the loaded report model (a run never changes it; render-pool-model-reuse.test.ts
 *  checks that), loaded on first use. */
export class CachedTemplate {
  private model: LoadFrxResult | undefined;
  /** The base reports read for the model, with their identities then. */
  private bases: { path: string; key: string }[] = [];

  /** `folder`: the template's own folder, where its base and detail reports are and against
   *  which the names of its files resolve; `resources`: the folder they must all be inside. */
  constructor(
    readonly bytes: Buffer,
    private readonly folder?: string,
    private readonly maxFileBytes = DEFAULT_XML_LIMITS.maxInputBytes,
    readonly resources = folder,
  ) {}

  /** The loaded template; a TemplateError when it cannot be loaded (thrown again next time). */
  loaded(): LoadFrxResult {
    if (!this.model) {
      this.bases = [];
      this.model = loadFrx(this.bytes, {
        baseReport: (name) => this.readBase(name),
        resource: (path) => this.readResource(path),
      });
    }
    return this.model;
  }

  /** True when a base report read for the model has changed or gone since. */
  basesChanged(): boolean {
    return this.bases.some((b) => {
      try {
        return identity(statSync(b.path)) !== b.key;
      } catch {
        return b.key !== MISSING;
      }
    });
  }

  /** Another report of the template's folder, by file name (a DetailReport hyperlink's). */
  readonly readDetail = (name: string): Buffer | undefined => this.readNamed(name, `the report "${name}"`, false);

  private readBase(name: string): Buffer | undefined {
    return this.readNamed(name, `the report "${name}"`, true);
  }

  /** A file the template names relative to its folder ("../Maps/usa1.shp"), when it is a map
   *  or CSV file. */
  private readResource(relative: string): Buffer | undefined {
    if (!RESOURCE_EXTENSIONS.has(extname(relative).toLowerCase())) return undefined;
    return this.readNamed(relative, `the file "${relative}"`, true);
  }

  /**
   * A file the template names, read through its real path inside the resource folder (a
   * TemplateError when that is outside). `identifying`: it is part of the loaded model's
   * identity, under the name as written: a link pointed elsewhere, or a missing file that
   * appears, loads the template again.
   */
  private readNamed(name: string, what: string, identifying: boolean): Buffer | undefined {
    if (this.folder === undefined || this.resources === undefined) return undefined;
    const real = confinedRealPath(this.resources, this.folder, name, what);
    const named = resolve(this.folder, name);
    if (real === undefined) {
      if (identifying) this.bases.push({ path: named, key: MISSING });
      return undefined;
    }
    return this.readFile(real, what, identifying ? named : undefined);
  }

  /** A file's bytes; `identifyAs`: the path whose identity the loaded model depends on. */
  private readFile(path: string, what: string, identifyAs: string | undefined): Buffer | undefined {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return undefined;
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) return undefined;
      if (st.size > this.maxFileBytes) throw new TemplateError(`${what} is larger than ${this.maxFileBytes} bytes`);
      const bytes = readFileSync(fd);
      if (identifyAs !== undefined) this.bases.push({ path: identifyAs, key: identity(st) });
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

  /** The template at `path`, from the cache when the file has not changed; the files it names
   *  are read inside `resources` (default: its own folder). Throws TemplateError (without the
   *  path: the message may reach a client) when it cannot be read. */
  get(path: string, resources = dirname(path)): { template: CachedTemplate; hit: boolean } {
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
      if (cached && cached.key === key && cached.template.resources === resources && !cached.template.basesChanged()) {
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
      const template = new CachedTemplate(bytes, dirname(path), this.maxFileBytes, resources);
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
