// The PDF tools the PDF export tests check their output with: qpdf (structure), and from
// poppler-utils pdffonts (embedded fonts), pdftotext (text and word boxes) and pdftoppm (pages
// as images). Looked for in /usr/bin, then on PATH. Without them the tests that need them are
// skipped with a visible message, unless REQUIRE_POPPLER=1 (as CI sets it) makes that an error
// — the same rule as REQUIRE_CHROMIUM in test/integration/preview-xss.test.ts.

import { spawnSync } from 'node:child_process';
import { findExecutable } from './executables.js';

const TOOLS = ['qpdf', 'pdffonts', 'pdftotext', 'pdftoppm'] as const;
export type PdfTool = (typeof TOOLS)[number];

const paths = new Map<PdfTool, string | undefined>(TOOLS.map((t) => [t, findExecutable(t)]));
const missing = TOOLS.filter((t) => paths.get(t) === undefined);

/** True when every tool is there; false when some are missing (and REQUIRE_POPPLER is not set). */
export const POPPLER_AVAILABLE = missing.length === 0;

if (!POPPLER_AVAILABLE) {
  const what = `${missing.join(', ')} not found in /usr/bin or on PATH (apt-get install qpdf poppler-utils)`;
  if (process.env.REQUIRE_POPPLER === '1') throw new Error(`REQUIRE_POPPLER=1 but ${what}: the PDF checks cannot run`);
  process.stderr.write(
    `\n*** PDF export checks SKIPPED: ${what} (set REQUIRE_POPPLER=1 to make this an error) ***\n\n`,
  );
}

export interface ToolResult {
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs a tool (60 s at most); `input` goes to its stdin. */
export function runTool(tool: PdfTool, args: string[], input?: Buffer): ToolResult {
  const path = paths.get(tool);
  if (!path) throw new Error(`${tool} is not installed`);
  const r = spawnSync(path, args, { input, maxBuffer: 256 * 1024 * 1024, timeout: 60_000 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

function ok(tool: PdfTool, args: string[]): Buffer {
  const r = runTool(tool, args);
  if (r.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/** `qpdf --check`: exit status and its report. Status 0 = no errors, 3 = warnings only. */
export function qpdfCheck(file: string): { status: number | null; output: string } {
  const r = runTool('qpdf', ['--check', file]);
  return { status: r.status, output: `${r.stdout.toString('utf8')}${r.stderr}` };
}

export function pageCount(file: string): number {
  return Number(ok('qpdf', ['--show-npages', file]).toString('utf8').trim());
}

export interface FontRow {
  name: string;
  type: string;
  embedded: boolean;
  subset: boolean;
  unicode: boolean;
}

/** The rows of `pdffonts`. */
export function pdfFonts(file: string): FontRow[] {
  const lines = ok('pdffonts', [file])
    .toString('utf8')
    .split('\n')
    .slice(2)
    .filter((l) => l.trim() !== '');
  return lines.map((l) => {
    // name, type (may contain spaces), encoding, emb, sub, uni, object, generation
    const parts = l.trim().split(/\s+/);
    const n = parts.length;
    return {
      name: parts[0] ?? '',
      type: parts.slice(1, n - 6).join(' '),
      embedded: parts[n - 5] === 'yes',
      subset: parts[n - 4] === 'yes',
      unicode: parts[n - 3] === 'yes',
    };
  });
}

/** One word of `pdftotext -bbox`, box in PDF points from the page's top-left. */
export interface PdfWord {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

export interface PdfTextPage {
  width: number;
  height: number;
  words: PdfWord[];
}

const decodeEntities = (s: string): string =>
  s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) =>
    e === 'lt'
      ? '<'
      : e === 'gt'
        ? '>'
        : e === 'amp'
          ? '&'
          : e === 'quot'
            ? '"'
            : e === 'apos'
              ? "'"
              : String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))),
  );

/** Every page's words with their boxes (`pdftotext -bbox`). */
export function pdfWords(file: string): PdfTextPage[] {
  const xml = ok('pdftotext', ['-bbox', file, '-']).toString('utf8');
  const pages: PdfTextPage[] = [];
  for (const p of xml.matchAll(/<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g)) {
    const words: PdfWord[] = [];
    for (const w of (p[3] as string).matchAll(
      /<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g,
    )) {
      words.push({
        xMin: Number(w[1]),
        yMin: Number(w[2]),
        xMax: Number(w[3]),
        yMax: Number(w[4]),
        text: decodeEntities(w[5] as string),
      });
    }
    pages.push({ width: Number(p[1]), height: Number(p[2]), words });
  }
  return pages;
}

/** Plain text of the whole document (`pdftotext -layout`). */
export function pdfText(file: string): string {
  return ok('pdftotext', ['-layout', file, '-']).toString('utf8');
}

export interface RasterPage {
  width: number;
  height: number;
  /** RGB, 3 bytes per pixel, rows top to bottom. */
  rgb: Uint8Array;
}

/** Parses a binary PPM (P6, maxval 255), as pdftoppm writes it. */
export function parsePpm(b: Buffer): RasterPage {
  let pos = 0;
  const token = (): string => {
    for (;;) {
      while (pos < b.length && /\s/.test(String.fromCharCode(b[pos] as number))) pos++;
      if (b[pos] === 0x23) while (pos < b.length && b[pos] !== 0x0a) pos++;
      else break;
    }
    const start = pos;
    while (pos < b.length && !/\s/.test(String.fromCharCode(b[pos] as number))) pos++;
    return b.subarray(start, pos).toString('latin1');
  };
  if (token() !== 'P6') throw new Error('not a binary PPM (P6)');
  const width = Number(token());
  const height = Number(token());
  const max = Number(token());
  if (max !== 255) throw new Error(`PPM with maxval ${max} is not supported`);
  pos++; // the single whitespace before the samples
  const rgb = b.subarray(pos, pos + width * height * 3);
  if (rgb.length !== width * height * 3) throw new Error('PPM is truncated');
  return { width, height, rgb: new Uint8Array(rgb) };
}

/** One page rendered by pdftoppm at `dpi` (anti-aliased, RGB). */
export function rasterPage(file: string, page: number, dpi: number): RasterPage {
  return parsePpm(ok('pdftoppm', ['-r', String(dpi), '-f', String(page), '-l', String(page), file]));
}

/** The poppler version (pdftoppm -v), for messages about rasterisation differences. */
export function popplerVersion(): string {
  const r = runTool('pdftoppm', ['-v']);
  return /version ([\d.]+)/.exec(r.stderr)?.[1] ?? 'unknown';
}
