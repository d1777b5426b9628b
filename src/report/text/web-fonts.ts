// The face files as web fonts: content-addressed names for a server to answer with, so a
// browser draws HTML reports with the very files the engine measured with. Their WOFF2 bytes are
// made and kept by web-font-store.ts.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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
