// Test helpers for merged and starter templates: what a cell shows for a JSON value (.NET
// ToString rules, written independently of the engine), the data cells a report printed, and
// the cells a starter template must print for a sample, computed from the sample alone.

import { allObjects, loadFrx } from '../../../src/report/frx/index.js';
import { shownText, type PreparedReport, type PreparedText } from '../../../src/report/engine/index.js';

/** .NET's Double.ToString() in en-US (.NET Core 3.0+: shortest round-trip digits; .NET 6+
 *  switches to "d.dddE+XX" when the exponent reaches max(17, digit count), or is below -4). */
export function dotnetDouble(n: number): string {
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  const digitCount = mantissa.replace(/[-.]/g, '').length;
  if (exp >= Math.max(17, digitCount) || exp < -4)
    return `${mantissa}E${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

/** What a text object shows for a JSON scalar (null shows empty). */
export function shown(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return dotnetDouble(v);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  return String(v);
}

/** Text without whitespace: wrapped lines lose the spaces they broke at. */
export const squeeze = (s: string): string => s.replace(/\s+/gu, '');

/** The texts of the objects bound to JSON data (`[JSON.…]`), in print order. */
export function dataCells(template: string, prepared: PreparedReport): string[] {
  const { report } = loadFrx(template);
  const bound = new Set<string>();
  for (const page of report.pages) {
    for (const o of allObjects(page)) if (o.type === 'TextObject' && o.text.includes('[JSON.')) bound.add(o.name);
  }
  const out: string[] = [];
  for (const page of prepared.pages)
    for (const it of page.items) if (it.kind === 'text' && bound.has(it.name)) out.push(shownText(it as PreparedText));
  return out;
}

// The structure of rows as the union of all rows seen (first-seen order; null/missing does not
// decide a kind), and the cells a starter template prints for it.
type Shape =
  | { kind: 'scalar' }
  | { kind: 'object'; props: Map<string, Shape> }
  | { kind: 'array'; items: Shape | undefined };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function shapeOf(v: unknown, into?: Shape): Shape | undefined {
  if (v === null || v === undefined) return into;
  if (Array.isArray(v)) {
    const s = into?.kind === 'array' ? into : { kind: 'array' as const, items: undefined as Shape | undefined };
    for (const el of v) s.items = shapeOf(el, s.items);
    return s;
  }
  if (isObject(v)) {
    const s = into?.kind === 'object' ? into : { kind: 'object' as const, props: new Map<string, Shape>() };
    for (const [k, x] of Object.entries(v)) {
      const sub = shapeOf(x, s.props.get(k));
      if (sub) s.props.set(k, sub);
      else if (!s.props.has(k)) s.props.set(k, { kind: 'scalar' }); // only nulls seen: a scalar column
    }
    return s;
  }
  return into ?? { kind: 'scalar' };
}

/** Cells of one row: its scalars (objects flattened) first, then the rows of its arrays. */
function rowCells(shape: Shape | undefined, v: unknown, out: string[]): void {
  const nested: [Shape, unknown][] = [];
  const leaves = (s: Shape | undefined, x: unknown): void => {
    if (!s || s.kind === 'scalar') out.push(shown(x));
    else if (s.kind === 'object')
      for (const [k, sub] of s.props) leaves(sub, isObject(x) && Object.hasOwn(x, k) ? x[k] : null);
    else nested.push([s, x]);
  };
  leaves(shape, v);
  for (const [s, x] of nested) tableCells(s, x, out);
}

function tableCells(s: Shape, v: unknown, out: string[]): void {
  if (s.kind !== 'array' || !Array.isArray(v)) return;
  for (const el of v) rowCells(s.items, el, out);
}

/** The cells a starter template prints for an SRS sample (command → rows | object | value). */
export function expectedStarterCells(sample: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const value of Object.values(sample)) {
    const s = shapeOf(value);
    if (s?.kind === 'array') tableCells(s, value, out);
    else rowCells(s, value, out);
  }
  return out;
}
