// Which of an app's templates fit an SRS definition, best first, so a client can offer a
// definition its own report instead of the app's first template. A definition that names its
// templates (`<srs templates="…">`) gets those, in its order. Otherwise a template fits when the
// data it uses is named like the definition's commands: a template designed on a definition's
// data (or on its starter template) has a JSON table or object per command under `JSON.item` in
// its dictionary, bands whose DataSource is a command, expressions `[JSON.item.<command>…]`. One
// that names none of the commands was made for other data and would render blank.
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseXml, TemplateError, type XmlElement } from '../report/index.js';
import type { SrsDefinition } from './definition/model.js';
import { TEMPLATE_EXTENSION, TemplateResolver } from './templates.js';

/** The names of the data a template uses (lower case). */
export type DictionaryNames = ReadonlySet<string>;

/** Names every JSON connection has (the root table and its row columns): they match nothing. */
const STRUCTURAL_NAMES = new Set(['json', 'item', 'array', 'index']);

/** A path into the JSON connection's row: `JSON.item.<command>`. */
const ITEM_PATH = /\bJSON\.item\.([\p{L}_][\p{L}\p{N}_]*)/gu;

function add(out: Set<string>, name: string | undefined): void {
  const v = name?.trim().toLowerCase();
  if (v && !STRUCTURAL_NAMES.has(v)) out.add(v);
}

function collectNames(el: XmlElement, inDictionary: boolean, out: Set<string>): void {
  const isSource = el.name.endsWith('DataSource');
  const isObject = el.name === 'Column' && el.attrs.DataType === 'FastReport.JsonBase';
  if (inDictionary && (isSource || isObject))
    for (const attr of ['Name', 'Alias', 'TableName', 'PropName']) add(out, el.attrs[attr]);
  for (const [attr, value] of Object.entries(el.attrs)) {
    if (attr === 'DataSource') add(out, value);
    for (const m of value.matchAll(ITEM_PATH)) add(out, m[1]);
  }
  for (const m of el.text.matchAll(ITEM_PATH)) add(out, m[1]);
  for (const child of el.children) collectNames(child, inDictionary || child.name === 'Dictionary', out);
}

/** The names of the data a template uses, lower case: its dictionary's data sources and object
 *  columns, its bands' DataSource, the `JSON.item.<name>` of its expressions. Empty for no
 *  readable template (which fits no definition by its data). */
export function dictionaryNames(template: Buffer | string): DictionaryNames {
  const out = new Set<string>();
  let root: XmlElement;
  try {
    root = parseXml(template).root;
  } catch (err) {
    if (err instanceof TemplateError) return out;
    throw err;
  }
  collectNames(root, false, out);
  return out;
}

export interface TemplateFit {
  template: string;
  /** How many of the definition's commands the template's dictionary names. */
  matched: number;
  /** Data names of the template that are none of the definition's commands. */
  foreign: number;
}

/** How well a template with dictionary `names` fits `definition`; null when it names none of the
 *  definition's commands. */
export function templateFit(template: string, names: DictionaryNames, definition: SrsDefinition): TemplateFit | null {
  const commands = new Set(definition.commands.map((c) => c.name.toLowerCase()));
  let matched = 0;
  for (const c of commands) if (names.has(c)) matched++;
  if (matched === 0) return null;
  let foreign = 0;
  for (const n of names) if (!commands.has(n)) foreign++;
  return { template, matched, foreign };
}

/** Best fit first: more commands matched, then fewer names of other data, then by name. */
export function compareFits(a: TemplateFit, b: TemplateFit): number {
  return (
    b.matched - a.matched || a.foreign - b.foreign || (a.template < b.template ? -1 : a.template > b.template ? 1 : 0)
  );
}

/** The templates of `available` that fit `definition`, best first (see the file's comment). */
export function fittingTemplates(
  definition: SrsDefinition,
  available: readonly string[],
  namesOf: (template: string) => DictionaryNames,
): string[] {
  if (definition.templates.length > 0) return definition.templates.filter((t) => available.includes(t));
  return available
    .map((t) => templateFit(t, namesOf(t), definition))
    .filter((f): f is TemplateFit => f !== null)
    .sort(compareFits)
    .map((f) => f.template);
}

/** Dictionary names of an app's templates, read once per file version (size, mtime, inode). */
export class TemplateDictionaries {
  private readonly cache = new Map<string, { stamp: string; names: DictionaryNames }>();

  /** The names of each of `templates` (as TemplateResolver.list gives them) in `appDir`. */
  async namesOf(appDir: string, templates: readonly string[]): Promise<Map<string, DictionaryNames>> {
    const out = new Map<string, DictionaryNames>();
    const dir = TemplateResolver.dirOf(appDir);
    for (const t of templates) {
      const path = join(dir, t + TEMPLATE_EXTENSION);
      try {
        // lstat: a symlink is no template (TemplateResolver refuses it too), so it is never read.
        const info = await lstat(path);
        const stamp = `${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.ino}`;
        let entry = this.cache.get(path);
        if (entry?.stamp !== stamp) {
          entry = { stamp, names: info.isFile() ? dictionaryNames(await readFile(path)) : new Set() };
          this.cache.set(path, entry);
        }
        out.set(t, entry.names);
      } catch (err) {
        // Removed or unreadable since the listing: it fits nothing now.
        if (!(err as NodeJS.ErrnoException).code) throw err;
        out.set(t, new Set());
      }
    }
    return out;
  }
}
