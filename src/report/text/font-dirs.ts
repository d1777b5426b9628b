// Extra fallback faces from font directories: the operator's own (Settings:FontDirs) and Debian's
// Noto packages (fonts-noto-core, fonts-noto-cjk… at their standard paths), tried after the faces
// from npm for characters none of those has (Bengali, Tamil, Ethiopic, Georgian, …).
//
// A directory is listed once, on the first character that reaches the extra faces; a face file
// is read only when the chain asks it for a character. Only upright regular faces are taken (a
// fallback keeps its own weight, as the npm script fonts do), .ttf and .otf files (not font
// collections), at most MAX_FILES of them and none over MAX_FILE_BYTES, so a directory of
// thousands of files costs a bounded listing, not a bounded disaster.

import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { FontFace } from './font-faces.js';

/** Where Debian's fonts-noto-* packages put their files. */
export const SYSTEM_FONT_DIRS: readonly string[] = ['/usr/share/fonts/truetype/noto', '/usr/share/fonts/opentype/noto'];

const MAX_FILES = 400;
const MAX_FILE_BYTES = 64 * 1024 * 1024;
const NOT_REGULAR = /bold|italic|oblique|light|thin|black|medium|semi|extra|condensed|narrow|heavy|display|mono|ui-/i;

let dirs: readonly string[] = SYSTEM_FONT_DIRS;
let faces: FontFace[] | undefined;
let generation = 0;
const byPath = new Map<string, FontFace>();

/** Sets the operator's font directories (Settings:FontDirs); Debian's follow them. Calling it
 *  again with the same list changes nothing. */
export function setFontDirs(operatorDirs: readonly string[]): void {
  const next = [...operatorDirs, ...SYSTEM_FONT_DIRS.filter((d) => !operatorDirs.includes(d))];
  if (next.length === dirs.length && next.every((d, i) => d === dirs[i])) return;
  dirs = next;
  faces = undefined;
  generation++;
}

/** Counts the changes of directories (font services drop their fallback choices on a change). */
export function fontDirsGeneration(): number {
  return generation;
}

/** The directories searched, in order. */
export function fontDirs(): readonly string[] {
  return dirs;
}

/** The extra faces, in the order the directories and file names give (listed on first use). */
export function extraFaces(): readonly FontFace[] {
  faces ??= listFaces();
  return faces;
}

function listFaces(): FontFace[] {
  const out: FontFace[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue; // a directory that is not there (Debian's, on most machines) adds nothing
    }
    for (const name of names) {
      if (out.length >= MAX_FILES) return out;
      if (!/\.(ttf|otf)$/i.test(name) || NOT_REGULAR.test(name)) continue;
      const path = join(dir, name);
      try {
        const st = statSync(path);
        if (!st.isFile() || st.size > MAX_FILE_BYTES) continue;
      } catch {
        continue;
      }
      let face = byPath.get(path);
      if (!face) {
        face = new FontFace(
          basename(name)
            .replace(/\.(ttf|otf)$/i, '')
            .replace(/-Regular$/i, ''),
          false,
          false,
          path,
        );
        byPath.set(path, face);
      }
      out.push(face);
    }
  }
  return out;
}
