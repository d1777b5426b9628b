// An RTF document laid out in a frame: paragraphs broken into lines by words (the text module's
// widths and line-breaking rules), each line aligned (left, centre, right, justified) inside the
// paragraph's indents, runs of several fonts on a line sharing one baseline; tabs at the default
// stops (every 720 twips from the frame's left edge, as RichEdit without \deftab); tables as a
// grid of cells side by side. The result is the prepared HTML-line form both exporters draw
// with per-run fonts and colours (PreparedHtmlLine, `fixed`: positionLines keeps x and spacing).

import type { ReportWarnings } from '../errors.js';
import type { PreparedHtmlLine, PreparedRun } from '../engine/prepared.js';
import { advanceLookup, type FontService, type FontSpec, type ResolvedFont } from '../text/index.js';
import { type AtomParagraph, kindOf, nextTabStop, type RawLine, SPACE, TAB, wrapParagraph } from '../text/wrap.js';
import type { RtfCellBorders, RtfCharStyle, RtfDocument, RtfParagraph, RtfRun } from './rtf-document.js';

/** RTF's default tab stop distance (without \deftab): 720 twips. */
export const RTF_TAB_PX = 48;
/** Sub- and superscript size and shifts relative to the run's size (RichEdit's 2/3 and 1/3). */
const SCRIPT_SCALE = 2 / 3;

/** A table row's cells: which lines the row spans, and each cell's edges (x from the frame's
 *  left) and borders. */
export interface RtfGridRow {
  firstLine: number;
  lineCount: number;
  cells: { left: number; right: number; borders: RtfCellBorders }[];
}

export interface RtfLayout {
  lines: PreparedHtmlLine[];
  /** Sum of the line heights. */
  height: number;
  grid: RtfGridRow[];
}

interface Ctx {
  fonts: FontService;
  warnings: ReportWarnings | undefined;
  tabWidth: number;
  /** Resolved fonts and advance lookups by font, for the document (runs repeat a few fonts). */
  faces: Map<string, { resolved: ResolvedFont; advance: (cp: number) => number }>;
}

function face(ctx: Ctx, f: FontSpec): { resolved: ResolvedFont; advance: (cp: number) => number } {
  const key = `${f.family}|${f.sizePt}|${f.bold}|${f.italic}|${f.underline}|${f.strikeout}`;
  let r = ctx.faces.get(key);
  if (!r) {
    const resolved = ctx.fonts.resolve(f, ctx.warnings);
    r = { resolved, advance: advanceLookup(resolved, ctx.fonts) };
    ctx.faces.set(key, r);
  }
  return r;
}

interface Atoms extends AtomParagraph {
  owners: number[];
}

export function fontOf(s: RtfCharStyle): FontSpec {
  return {
    family: s.family,
    sizePt: s.sub || s.sup ? s.sizePt * SCRIPT_SCALE : s.sizePt,
    bold: s.bold,
    italic: s.italic,
    underline: s.underline,
    strikeout: s.strike,
  };
}

/** Lays out a document for a frame `width` px wide. */
export function layoutRtf(doc: RtfDocument, width: number, fonts: FontService, warnings?: ReportWarnings): RtfLayout {
  const ctx: Ctx = { fonts, warnings, tabWidth: doc.tabWidth > 0 ? doc.tabWidth : RTF_TAB_PX, faces: new Map() };
  const lines: PreparedHtmlLine[] = [];
  const grid: RtfGridRow[] = [];
  for (const b of doc.blocks) {
    if (b.kind === 'para') lines.push(...layoutParagraph(ctx, b, 0, width));
    else
      for (const row of b.rows) {
        const cells = row.cells.map((c) => {
          const x = c.left + row.gap;
          const w = Math.max(1, c.right - c.left - 2 * row.gap);
          return { x, lines: c.paragraphs.flatMap((p) => layoutParagraph(ctx, p, x, w, false)) };
        });
        const merged = mergeRow(cells);
        const height = merged.reduce((s, l) => s + l.height, 0);
        const lastLine = merged[merged.length - 1];
        if (lastLine && height < row.minHeight) lastLine.height += row.minHeight - height;
        grid.push({
          firstLine: lines.length,
          lineCount: merged.length,
          cells: row.cells.map((c) => ({ left: c.left, right: c.right, borders: c.borders })),
        });
        lines.push(...merged);
      }
  }
  return { lines, height: lines.reduce((s, l) => s + l.height, 0), grid };
}

/** A table row's cells side by side: the k-th lines of the cells become one line. */
function mergeRow(cells: { x: number; lines: PreparedHtmlLine[] }[]): PreparedHtmlLine[] {
  const n = cells.reduce((m, c) => Math.max(m, c.lines.length), 0);
  const out: PreparedHtmlLine[] = [];
  for (let k = 0; k < n; k++) {
    const parts = cells.flatMap((c) => c.lines.slice(k, k + 1));
    const baseline = parts.reduce((m, l) => Math.max(m, l.baseline), 0);
    const height = parts.reduce((m, l) => Math.max(m, l.height - l.baseline), 0) + baseline;
    const runs = parts.flatMap((l) =>
      l.runs.map((r) => ({ ...r, x: r.x + l.x, baseline: r.baseline + baseline - l.baseline })),
    );
    const width = runs.reduce((m, r) => Math.max(m, r.x + r.width), 0);
    out.push({ x: 0, y: 0, width, height, baseline, hardBreak: true, runs, fixed: true });
  }
  return out;
}

function atomsOf(ctx: Ctx, runs: readonly RtfRun[]): Atoms[] {
  const segments: Atoms[] = [];
  let cur: Atoms = { cps: [], widths: [], kinds: [], owners: [] };
  segments.push(cur);
  runs.forEach((run, owner) => {
    const { advance } = face(ctx, fontOf(run.style));
    for (const ch of run.text) {
      if (ch === '\n') {
        cur = { cps: [], widths: [], kinds: [], owners: [] };
        segments.push(cur);
        continue;
      }
      const cp = ch.codePointAt(0) ?? 0;
      cur.cps.push(ch);
      cur.kinds.push(kindOf(cp));
      cur.widths.push(cp === 0x09 ? 0 : advance(cp));
      cur.owners.push(owner);
    }
  });
  return segments;
}

function slice(a: Atoms, from: number): Atoms {
  return {
    cps: a.cps.slice(from),
    widths: a.widths.slice(from),
    kinds: a.kinds.slice(from),
    owners: a.owners.slice(from),
  };
}

/** Lines of one segment: the first `firstWidth` wide, the others `width`. */
function wrapSegment(ctx: Ctx, a: Atoms, firstWidth: number, width: number): { atoms: Atoms; line: RawLine }[] {
  const wrap = { wordWrap: true, breakLongWords: true, tabWidth: ctx.tabWidth };
  const first = wrapParagraph(a, firstWidth, wrap);
  const head = first[0] as RawLine;
  if (first.length === 1 || firstWidth === width) return first.map((line) => ({ atoms: a, line }));
  const restAtoms = slice(a, (first[1] as RawLine).from);
  return [
    { atoms: a, line: head },
    ...wrapParagraph(restAtoms, width, wrap).map((line) => ({ atoms: restAtoms, line })),
  ];
}

/**
 * The lines of one paragraph in an area `width` px wide starting at `areaX` (the frame or a table
 * cell). `justify` false sets justified text flush left (table cells: their lines share a line
 * of the row with other cells).
 */
function layoutParagraph(ctx: Ctx, p: RtfParagraph, areaX: number, width: number, justify = true): PreparedHtmlLine[] {
  const ps = p.style;
  const mark = face(ctx, fontOf(p.mark)).resolved;
  const out: PreparedHtmlLine[] = [];
  const segments = p.runs.length === 0 ? [] : atomsOf(ctx, p.runs);
  let firstOfParagraph = true;
  for (const seg of segments) {
    const firstIndent = ps.left + (firstOfParagraph ? ps.first : 0);
    const avail = (indent: number): number => Math.max(1, width - indent - ps.right);
    const raw = wrapSegment(ctx, seg, avail(firstIndent), avail(ps.left));
    raw.forEach(({ atoms, line }, idx) => {
      const indent = idx === 0 ? firstIndent : ps.left;
      const last = idx === raw.length - 1;
      out.push(placeLine(ctx, p, atoms, line, indent, areaX, avail(indent), last, justify));
    });
    firstOfParagraph = false;
  }
  if (out.length === 0)
    out.push({
      x: areaX + ps.left + ps.first,
      y: 0,
      width: 0,
      height: spaced(ps, mark.lineHeightPx),
      baseline: mark.ascentPx,
      hardBreak: true,
      runs: [],
      fixed: true,
    });
  const top = out[0] as PreparedHtmlLine;
  top.height += ps.before;
  top.baseline += ps.before;
  for (const r of top.runs) r.baseline += ps.before;
  (out[out.length - 1] as PreparedHtmlLine).height += ps.after;
  return out;
}

function placeLine(
  ctx: Ctx,
  p: RtfParagraph,
  a: Atoms,
  line: RawLine,
  indent: number,
  areaX: number,
  avail: number,
  hardBreak: boolean,
  justify: boolean,
): PreparedHtmlLine {
  const runs: PreparedRun[] = [];
  let x = 0;
  let last: PreparedRun | undefined;
  let lastOwner = -1;
  let spaces = 0;
  for (let i = line.from; i < line.to; i++) {
    if (a.kinds[i] === TAB) {
      x = tabTo(ctx, p, a, i, line.to, indent, x);
      last = undefined;
      continue;
    }
    const owner = a.owners[i] ?? 0;
    const w = a.widths[i] ?? 0;
    if (a.kinds[i] === SPACE) spaces++;
    if (last && owner === lastOwner) {
      last.text += a.cps[i] ?? '';
      last.width += w;
    } else {
      const style = (p.runs[owner] as RtfRun).style;
      last = { text: a.cps[i] ?? '', x, width: w, baseline: 0, font: fontOf(style), sub: style.sub, sup: style.sup };
      if (style.color !== undefined) last.color = style.color;
      if (style.background !== undefined) last.background = style.background;
      runs.push(last);
      lastOwner = owner;
    }
    x += w;
  }
  const lineWidth = x;
  // Metrics: the tallest run's line height, one baseline for all.
  let ascent = 0;
  let descent = 0;
  const shifts: number[] = [];
  for (const r of runs) {
    const rf = face(ctx, r.font).resolved;
    const full = r.sub || r.sup ? rf.sizePx / SCRIPT_SCALE : rf.sizePx;
    const shift = r.sup ? -full / 3 : r.sub ? full / 6 : 0;
    shifts.push(shift);
    ascent = Math.max(ascent, rf.ascentPx - shift);
    descent = Math.max(descent, rf.lineHeightPx - rf.ascentPx + shift);
  }
  if (runs.length === 0) {
    const mark = face(ctx, fontOf(p.mark)).resolved;
    ascent = mark.ascentPx;
    descent = mark.lineHeightPx - mark.ascentPx;
  }
  runs.forEach((r, k) => {
    r.baseline = ascent + (shifts[k] ?? 0);
  });
  const align = p.style.align;
  let offset = 0;
  let wordSpacing: number | undefined;
  if (align === 'Center') offset = (avail - lineWidth) / 2;
  else if (align === 'Right') offset = avail - lineWidth;
  else if (align === 'Justify' && justify && !hardBreak) {
    const trailing = countTrailingSpaces(runs);
    const n = spaces - trailing;
    if (n > 0 && avail > lineWidth) wordSpacing = (avail - lineWidth) / n;
  }
  const out: PreparedHtmlLine = {
    x: areaX + indent + Math.max(0, offset),
    y: 0,
    width: lineWidth,
    height: spaced(p.style, ascent + descent),
    baseline: ascent,
    hardBreak,
    runs,
    fixed: true,
  };
  if (wordSpacing !== undefined) out.wordSpacing = wordSpacing;
  return out;
}

/** Where the text after the tab at atom `i` starts (from the line's start, `indent` from the
 *  frame's left): the next custom stop (a right, centre or decimal stop aligns the text up to the
 *  next tab against it), else the next default stop. A hanging first line tabs to the
 *  paragraph's indent first (RichEdit's implicit stop). */
function tabTo(ctx: Ctx, p: RtfParagraph, a: Atoms, i: number, end: number, indent: number, x: number): number {
  const abs = indent + x;
  const custom = p.style.tabs.find((t) => t.pos > abs + 1e-6);
  if (!custom) {
    const stop = p.style.first < 0 && abs < p.style.left ? p.style.left : nextTabStop(abs, ctx.tabWidth);
    return stop - indent;
  }
  if (custom.kind === 'left') return custom.pos - indent;
  // The text up to the next tab (to the decimal point for a decimal stop).
  let w = 0;
  for (let k = i + 1; k < end && a.kinds[k] !== TAB; k++) {
    if (custom.kind === 'decimal' && a.cps[k] === '.') break;
    w += a.widths[k] ?? 0;
  }
  const start = custom.kind === 'center' ? custom.pos - w / 2 : custom.pos - w;
  return Math.max(x, start - indent);
}

/** A line's height under the paragraph's line spacing (\sl, \slmult). */
function spaced(ps: RtfParagraph['style'], natural: number): number {
  const sl = ps.lineSpacing;
  if (sl === 0) return natural;
  if (sl < 0) return -sl;
  // \slmult1: \sl is in 240ths of a single line (sl here is px: twips / 15).
  return ps.multiple ? (natural * sl * 15) / 240 : Math.max(natural, sl);
}

function countTrailingSpaces(runs: readonly PreparedRun[]): number {
  let n = 0;
  for (let k = runs.length - 1; k >= 0; k--) {
    const t = (runs[k] as PreparedRun).text;
    for (let i = t.length - 1; i >= 0; i--) {
      if (t[i] !== ' ') return n;
      n++;
    }
  }
  return n;
}
