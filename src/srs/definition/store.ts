// Finds and caches SRS definitions: `srs/<id>-<slug>.xml` or `srs/<id>.xml` in an app folder.
// A definition is parsed once and reused until its file changes (size, mtime, ctime or inode),
// so an edited file takes effect on the next request without a restart. A broken file is cached
// as its error, so it is not re-parsed on every request either.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Stats } from 'node:fs';
import type { SrsDefinition } from './model.js';
import { parseSrsDefinition, SrsDefinitionError, SRS_XML_LIMITS } from './parse.js';

export const SRS_ID_PATTERN = '^[A-Za-z0-9_]{1,64}$';
const idRe = new RegExp(SRS_ID_PATTERN);

interface CacheEntry {
  stamp: string;
  result: SrsDefinition | SrsDefinitionError;
}

export interface DefinitionStoreOptions {
  /** Called once per (re)load of a file, with its warnings or its error. */
  onLoad?: (file: string, result: SrsDefinition | SrsDefinitionError) => void;
}

/** The file of definition `id` among the names of an `srs/` folder. */
export function definitionFileFor(names: readonly string[], id: string): string | null | { ambiguous: string[] } {
  const matches = names.filter((n) => n.endsWith('.xml') && (n === `${id}.xml` || n.startsWith(`${id}-`))).sort();
  if (matches.length === 0) return null;
  if (matches.length > 1) return { ambiguous: matches };
  return matches[0]!;
}

/** The SRS ids the file names of an `srs/` folder define (`<id>-<slug>.xml`, `<id>.xml`), sorted
 *  numerically where they are numbers. */
export function definitionIds(names: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const n of names) {
    if (!n.endsWith('.xml')) continue;
    const stem = n.slice(0, -'.xml'.length);
    const dash = stem.indexOf('-');
    const id = dash < 0 ? stem : stem.slice(0, dash);
    if (idRe.test(id)) ids.add(id);
  }
  return [...ids].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

export class DefinitionStore {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(private readonly options: DefinitionStoreOptions = {}) {}

  /** The ids of the app's definitions (none without an `srs/` folder). */
  async ids(appDir: string): Promise<string[]> {
    try {
      return definitionIds(await readdir(join(appDir, 'srs')));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return [];
      throw err;
    }
  }

  /** The definition `id` of the app in `appDir`, or null when there is none. */
  async load(appDir: string, id: string): Promise<SrsDefinition | null> {
    if (!idRe.test(id)) return null;
    const dir = join(appDir, 'srs');
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR')
        return null;
      throw err;
    }
    const file = definitionFileFor(names, id);
    if (file === null) return null;
    if (typeof file === 'object')
      throw new SrsDefinitionError(
        `srs/${id}-*.xml`,
        null,
        `several files define SRS ${id}: ${file.ambiguous.join(', ')}`,
      );

    const path = join(dir, file);
    let info: Stats;
    try {
      info = await stat(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null; // removed meanwhile
      throw err;
    }
    if (!info.isFile()) return null;
    const where = `srs/${file}`;
    const stamp = `${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.ino}`;
    const cached = this.cache.get(path);
    let result: SrsDefinition | SrsDefinitionError;
    if (cached && cached.stamp === stamp) {
      result = cached.result;
    } else {
      result =
        info.size > SRS_XML_LIMITS.maxInputBytes
          ? new SrsDefinitionError(where, null, `the file is larger than ${SRS_XML_LIMITS.maxInputBytes} bytes`)
          : await this.parse(id, where, path);
      this.cache.set(path, { stamp, result });
      this.options.onLoad?.(where, result);
    }
    if (result instanceof SrsDefinitionError) throw result;
    return result;
  }

  private async parse(id: string, where: string, path: string): Promise<SrsDefinition | SrsDefinitionError> {
    try {
      return parseSrsDefinition(id, where, await readFile(path));
    } catch (err) {
      if (err instanceof SrsDefinitionError) return err;
      throw err;
    }
  }
}
