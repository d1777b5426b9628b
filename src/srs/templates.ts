// Resolves `{templatename}` to a file strictly inside an app's `templates/` folder (docs/reports.md, Templates):
// the name is checked as text first (no separators, no `..`, no NUL or control characters, a
// length limit), then must equal an entry of the folder's listing exactly, case-sensitively on
// every platform, and that entry must be a regular file (a symlink could point anywhere). The
// name is never joined to a path before it has been found in the listing, so nothing outside
// `templates/` is ever opened, statted or listed.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, invalid, notFound } from '../lib/errors.js';
import { closestNames } from '../lib/edit-distance.js';

export const TEMPLATE_EXTENSION = '.frx';
export const MAX_TEMPLATE_NAME_LENGTH = 200;

/** The file-system calls the resolver makes: a seam for tests that watch them. */
export interface TemplateFs {
  readdir(dir: string): Promise<string[]>;
  lstat(path: string): Promise<{ isFile(): boolean }>;
}

export const nodeTemplateFs: TemplateFs = { readdir: (dir) => readdir(dir), lstat: (path) => lstat(path) };

/** Why `name` can never be a template name, or null. */
export function templateNameProblem(name: string): string | null {
  if (name.length === 0) return 'is empty';
  if (name.length > MAX_TEMPLATE_NAME_LENGTH) return `is longer than ${MAX_TEMPLATE_NAME_LENGTH} characters`;
  if (/[/\\]/.test(name)) return 'contains a path separator';
  if (name.includes('..')) return 'contains ".."';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'contains a control character';
  if (name.startsWith('.')) return 'starts with "."';
  return null;
}

/** 404 template_not_found, naming the closest existing templates (a typo is the usual cause). */
function templateNotFound(name: string, fileNames: readonly string[]): AppError {
  const templates = fileNames
    .filter((n) => n.endsWith(TEMPLATE_EXTENSION))
    .map((n) => n.slice(0, -TEMPLATE_EXTENSION.length));
  const close = closestNames(name, templates);
  const file = name + TEMPLATE_EXTENSION;
  if (close.length === 0) return notFound('template_not_found', `No template ${file}`);
  const hint = `did you mean ${close.join(', ')}?`;
  return new AppError('not_found', 'template_not_found', `No template ${file}; ${hint}`, {
    details: [{ field: 'templatename', rule: 'exists', message: `no template ${name}; ${hint}` }],
  });
}

export class TemplateResolver {
  constructor(readonly fs: TemplateFs = nodeTemplateFs) {}

  /** The folder of an app's templates. */
  static dirOf(appDir: string): string {
    return join(appDir, 'templates');
  }

  /** Template names (file names without `.frx`) of an app, sorted; [] without a folder. */
  async list(appDir: string): Promise<string[]> {
    let names: string[];
    try {
      names = await this.fs.readdir(TemplateResolver.dirOf(appDir));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR')
        return [];
      throw err;
    }
    return names
      .filter(
        (n) => n.endsWith(TEMPLATE_EXTENSION) && templateNameProblem(n.slice(0, -TEMPLATE_EXTENSION.length)) === null,
      )
      .map((n) => n.slice(0, -TEMPLATE_EXTENSION.length))
      .sort();
  }

  /** The absolute path of template `name` (without `.frx`); 400 for an impossible name, 404 when absent. */
  async resolve(appDir: string, name: string): Promise<string> {
    const problem = templateNameProblem(name);
    if (problem) {
      throw invalid('invalid_template_name', `The template name ${problem}`, [
        { field: 'templatename', rule: 'template_name', message: `templatename ${problem}` },
      ]);
    }
    const file = name + TEMPLATE_EXTENSION;
    const dir = TemplateResolver.dirOf(appDir);
    let names: string[];
    try {
      names = await this.fs.readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR')
        names = [];
      else throw err;
    }
    // Exact, case-sensitive: the file must be one of the listed names, byte for byte.
    const entry = names.find((n) => n === file);
    if (entry === undefined) throw templateNotFound(name, names);
    const path = join(dir, entry);
    const info = await this.fs.lstat(path).catch(() => null);
    if (!info?.isFile()) throw notFound('template_not_found', `No template ${file}`);
    return path;
  }
}
