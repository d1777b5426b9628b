// A worker's cache of template files, keyed by path and the file's identity (mtime, size,
// inode): one stat per job, the file is read again only when it changed. An inherited report's
// base files (read from the template's folder) are part of its identity: a changed base loads
// the template again. So are the files a template names beside it (map shapefiles, CSV files):
// they are read only inside the app's own folder (the parent of its templates folder), only
// files of those kinds, through real paths (a symbolic link out of the app is not followed).

import { closeSync, fstatSync, openSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { DEFAULT_XML_LIMITS, loadFrx, TemplateError, type LoadFrxResult } from '../../report/index.js';

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
  readonly readDetail = (name: string): Buffer | undefined =>
    this.folder === undefined ? undefined : this.readFile(join(this.folder, name), `the report "${name}"`, false);

  private readBase(name: string): Buffer | undefined {
    if (this.folder === undefined) return undefined;
    return this.readFile(join(this.folder, name), `the report "${name}"`, true);
  }

  /** A file the template names relative to its folder ("../Maps/usa1.shp"), when it is a map
   *  or CSV file inside the app's folder. */
  private readResource(relative: string): Buffer | undefined {
    if (this.folder === undefined || !RESOURCE_EXTENSIONS.has(extname(relative).toLowerCase())) return undefined;
    const appFolder = resolve(this.folder, '..');
    const named = resolve(this.folder, relative);
    if (!named.startsWith(appFolder + sep)) return undefined;
    let app: string;
    let path: string;
    try {
      app = realpathSync(appFolder);
      path = realpathSync(named);
    } catch {
      // Not there (yet): the template loads again once it is.
      this.bases.push({ path: named, key: MISSING });
      return undefined;
    }
    if (!path.startsWith(app + sep)) return undefined;
    return this.readFile(path, `the file "${relative}"`, true);
  }

  /** A file's bytes; `identifying`: it is part of the loaded model's identity. */
  private readFile(path: string, what: string, identifying: boolean): Buffer | undefined {
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
      if (identifying) this.bases.push({ path, key: identity(st) });
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
