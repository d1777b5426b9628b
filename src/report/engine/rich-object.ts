// RichObject at print time (FastReport's RichObject.GetData and CalcHeight): the RTF of its Text
// (read once per template object) or of its DataColumn (read per row), the expressions found in
// the document's plain text between the Brackets evaluated and shown with the Formats entry of
// their index, each value in the style of the run its opening bracket is in (the Mail Merge
// demo's merge fields), then the document laid out in the box minus Padding. It prints as one
// text item whose HTML-style lines carry the styled runs; CalcHeight = text + Padding.

import { TemplateError } from '../errors.js';
import { compileTemplate, type CompiledTemplate } from '../expr/index.js';
import { parseColor } from '../frx/colors.js';
import type { RichObjectModel } from '../frx/model.js';
import { DEFAULT_FONT } from '../text/index.js';
import { allParagraphs, type RtfDocument, type RtfParagraph, type RtfRun } from '../rtf/rtf-document.js';
import { layoutRtf, type RtfLayout } from '../rtf/rtf-layout.js';
import { readRtf } from '../rtf/rtf-reader.js';
import type { EngineContext } from './context.js';
import { columnValue, itemHeader, type ObjectType } from './object-type.js';
import type { PreparedLine, PreparedText } from './prepared.js';
import type { LaidItem, RtObject } from './runtime.js';
import { formatValue } from './text-object.js';
import { EMPTY_FRAME, positionLines } from './text-layout.js';

/** The design-time document of each object, read once. */
const designDocs = new WeakMap<RichObjectModel, RtfDocument>();

function read(text: string, where: string): RtfDocument {
  return readRtf(text, { where, defaultFamily: 'Arial' });
}

/** The RTF text of a DataColumn value (bytes are UTF-8, as FastReport reads a byte[] column). */
function columnText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  return String(v);
}

/** The runs of [from, to) of a paragraph's text, styles kept. */
function copyRange(runs: readonly RtfRun[], from: number, to: number, out: RtfRun[]): void {
  let pos = 0;
  for (const r of runs) {
    const end = pos + r.text.length;
    const a = Math.max(from, pos);
    const b = Math.min(to, end);
    if (a < b) out.push({ text: r.text.slice(a - pos, b - pos), style: r.style });
    pos = end;
  }
}

/** The run that holds character `at` of a paragraph's text. */
function runAt(runs: readonly RtfRun[], at: number): RtfRun | undefined {
  let pos = 0;
  for (const r of runs) {
    pos += r.text.length;
    if (at < pos) return r;
  }
  return runs[runs.length - 1];
}

/** The document with its expressions replaced by their formatted values. */
function calculate(e: EngineContext, o: RichObjectModel, doc: RtfDocument, cached: boolean): RtfDocument {
  const where = `${o.name}.Text`;
  const open = o.brackets.split(',')[0] || '[';
  let index = 0;
  let k = 0;
  const replaced = new Map<RtfParagraph, RtfRun[]>();
  for (const p of allParagraphs(doc)) {
    const key = `rtf${k++}`;
    const text = p.runs.map((r) => r.text).join('');
    if (!text.includes(open)) continue;
    const opts = { brackets: o.brackets, where, isName: e.scope.isName, isFunction: e.scope.isFunction };
    const t: CompiledTemplate = cached
      ? e.exprs.template(o, key, text, o.brackets, where)
      : compileTemplate(text, opts);
    if (t.expressions.length === 0) continue;
    const runs: RtfRun[] = [];
    let pos = 0;
    for (const part of t.parts) {
      if (part.kind !== 'expr') continue;
      copyRange(p.runs, pos, part.start, runs);
      const value = part.expression.evaluateTyped(e.scope, where);
      const shown = formatValue(e, o, value, index++).replace(/\r\n?/g, '\n');
      const style = runAt(p.runs, part.start)?.style;
      if (shown !== '' && style) runs.push({ text: shown, style });
      pos = part.end;
    }
    copyRange(p.runs, pos, text.length, runs);
    replaced.set(p, runs);
  }
  if (replaced.size === 0) return doc;
  const swap = (p: RtfParagraph): RtfParagraph => {
    const runs = replaced.get(p);
    return runs ? { ...p, runs } : p;
  };
  return {
    ...doc,
    blocks: doc.blocks.map((b) =>
      b.kind === 'para'
        ? swap(b)
        : {
            ...b,
            rows: b.rows.map((r) => ({
              ...r,
              cells: r.cells.map((c) => ({ ...c, paragraphs: c.paragraphs.map(swap) })),
            })),
          },
    ),
  };
}

function richData(e: EngineContext, o: RichObjectModel, rt: RtObject): void {
  let doc: RtfDocument;
  const fromColumn = o.dataColumn.trim() !== '';
  if (fromColumn) {
    const v = columnValue(e, o.dataColumn, `${o.name}.DataColumn`);
    doc = read(columnText(v), `${o.name}.DataColumn`);
  } else {
    let d = designDocs.get(o);
    if (!d) designDocs.set(o, (d = read(o.text, `${o.name}.Text`)));
    doc = d;
  }
  if (o.allowExpressions) doc = calculate(e, o, doc, !fromColumn);
  for (const what of doc.lost) e.warnings.add(`${o.name}: the RTF text's ${what} are not shown`);
  rt.rich = { doc };
}

/** The laid-out document for the object's current width (kept until the width changes). */
function layout(e: EngineContext, o: RichObjectModel, rt: RtObject) {
  const rich = (rt.rich ??= { doc: read(o.text, `${o.name}.Text`) });
  const width = Math.max(1, rt.width - o.padding.left - o.padding.right);
  if (!rich.layout || rich.width !== width) {
    try {
      rich.layout = layoutRtf(rich.doc, width, e.fonts, e.warnings);
    } catch (err) {
      if (err instanceof TemplateError && err.where === undefined) throw new TemplateError(err.message, o.name);
      throw err;
    }
    rich.width = width;
  }
  return rich.layout;
}

const NO_CAP = Object.freeze({ width: 8, height: 8, style: 'None' as const });

/** The borders of the table cells as line items (once per edge), placed after the text's lines
 *  were positioned. A row's vertical borders keep it on one page when the object breaks. */
function cellBorders(o: RichObjectModel, t: PreparedText, l: RtfLayout): LaidItem[] {
  const out: LaidItem[] = [];
  const seen = new Set<string>();
  const lines = t.html ?? [];
  const ox = t.x + t.frame.x;
  const oy = t.y + t.frame.y;
  for (const row of l.grid) {
    const first = lines[row.firstLine];
    const last = lines[row.firstLine + row.lineCount - 1];
    if (!first || !last) continue;
    const top = oy + first.y;
    const bottom = oy + last.y + last.height;
    for (const c of row.cells) {
      const edges = [
        [c.borders.top, c.left, top, c.right, top],
        [c.borders.bottom, c.left, bottom, c.right, bottom],
        [c.borders.left, c.left, top, c.left, bottom],
        [c.borders.right, c.right, top, c.right, bottom],
      ] as const;
      for (const [b, x1, y1, x2, y2] of edges) {
        const key = `${x1.toFixed(2)},${y1.toFixed(2)},${x2.toFixed(2)},${y2.toFixed(2)}`;
        if (!b || seen.has(key)) continue;
        seen.add(key);
        const line: PreparedLine = {
          kind: 'line',
          name: `${o.name}.CellBorder`,
          x: ox + x1,
          y: y1,
          width: x2 - x1,
          height: y2 - y1,
          x1: ox + x1,
          y1,
          x2: ox + x2,
          y2,
          color: (b.color !== undefined ? parseColor(b.color) : undefined) ?? { r: 0, g: 0, b: 0, a: 255 },
          lineWidth: b.width,
          style: 'Solid',
          dashPattern: [],
          startCap: NO_CAP,
          endCap: NO_CAP,
        };
        out.push({ item: line, canBreak: false });
      }
    }
  }
  return out;
}

function richItem(e: EngineContext, o: RichObjectModel, rt: RtObject): LaidItem | LaidItem[] {
  const l = layout(e, o, rt);
  const item: PreparedText = {
    kind: 'text',
    ...itemHeader(o, rt),
    text: l.lines.map((x) => x.runs.map((r) => r.text).join('')).join('\n'),
    font: DEFAULT_FONT,
    textFill: { kind: 'Solid', color: { r: 0, g: 0, b: 0, a: 255 } },
    color: { r: 0, g: 0, b: 0, a: 255 },
    horzAlign: 'Left',
    vertAlign: 'Top',
    padding: o.padding,
    angle: 0,
    frame: EMPTY_FRAME,
    lineHeight: l.lines[0]?.height ?? 0,
    ascent: l.lines[0]?.baseline ?? 0,
    wordWrap: true,
    clip: true,
    underlines: false,
    rightToLeft: false,
    forceJustify: false,
    lines: [],
    // Copies: positioning writes into the lines, and the layout is kept for the next print.
    html: l.lines.map((x) => ({ ...x })),
  };
  positionLines(item);
  const text: LaidItem = { item, canBreak: o.canBreak };
  return l.grid.length > 0 ? [text, ...cellBorders(o, item, l)] : text;
}

export const richObject: ObjectType<RichObjectModel> = {
  getData: richData,
  calcHeight: (e, o, rt) => layout(e, o, rt).height + o.padding.top + o.padding.bottom,
  item: richItem,
};
