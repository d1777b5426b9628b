// Where the files a template names may be: one folder (its "resource folder": the app's folder
// on the server, the template's own folder or --resources in the CLI), judged by real path. A
// name is resolved against the template's folder; one whose real path leaves the resource folder
// ("..\..\x.csv", an absolute path, a symbolic link out) is refused with a TemplateError, whether
// or not the file exists; a symbolic link that stays inside is followed. The message names the
// file as the template wrote it, never a path of the machine (it may reach an API client).

import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { TemplateError } from '../../report/index.js';

/** True when `path` is strictly inside `folder` (both absolute and normalized). */
export function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** The real path `path` has or would have: the real path of its nearest existing ancestor with
 *  the rest appended (`exists` false then). */
function realPathOf(path: string): { real: string; exists: boolean } {
  let tail = '';
  for (let p = path; ; p = dirname(p)) {
    try {
      const real = realpathSync(p);
      return tail === '' ? { real, exists: true } : { real: join(real, tail), exists: false };
    } catch {
      // Missing, a loop or not searchable: judged by the part above it, and never read.
      if (dirname(p) === p) return { real: path, exists: false };
      tail = tail === '' ? basename(p) : join(basename(p), tail);
    }
  }
}

/** The real path of `name` (relative to `templateFolder`) when it is a file inside
 *  `resourceFolder`; undefined when it is not there. `what` names it in the error:
 *  `the file "../Maps/x.shp"`. */
export function confinedRealPath(
  resourceFolder: string,
  templateFolder: string,
  name: string,
  what: string,
): string | undefined {
  let folder: string;
  try {
    folder = realpathSync(resourceFolder);
  } catch {
    return undefined; // no resource folder: nothing to read
  }
  const target = realPathOf(resolve(templateFolder, name));
  if (!isInside(folder, target.real))
    throw new TemplateError(`${what} is outside the folder this template may read files from`);
  return target.exists ? target.real : undefined;
}
