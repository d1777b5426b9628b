// Reading attribute values the way FastReport's FRReader does (invariant culture), plus the
// bookkeeping every element needs: which attributes were used (the rest become `raw`), script
// event handlers, and warnings for values that cannot be read (FastReport skips those too).

import { ReportWarnings } from '../errors.js';
import { parseColor, type Color } from './colors.js';
import { fontSpec, type FontSpec } from '../text/font-spec.js';
import type { PaddingModel } from './model.js';
import type { XmlElement } from './xml.js';

/** Shared state of one load: warnings and the script event handlers met on the way. */
export class LoadContext {
  readonly warnings = new ReportWarnings();
  private readonly eventRefs: string[] = [];
  private eventCount = 0;

  warn(message: string): void {
    this.warnings.add(message);
  }

  noteEvents(owner: string, events: Record<string, string>): void {
    for (const key of Object.keys(events)) {
      this.eventCount++;
      if (this.eventRefs.length < 20) this.eventRefs.push(`${owner}.${key}=${clip(events[key] ?? '', 40)}`);
    }
  }

  /** One warning that lists the event handlers (they are never run). */
  eventWarning(): string | null {
    if (this.eventCount === 0) return null;
    const more =
      this.eventCount > this.eventRefs.length ? `, … and ${this.eventCount - this.eventRefs.length} more` : '';
    return `Script event handlers are ignored (scripts are never run): ${this.eventRefs.join(', ')}${more}`;
  }
}

export function clip(s: string, max = 60): string {
  const oneLine = s.replace(/\s+/g, ' ');
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

/** `TextObject "Text1" (line 12)`: how warnings name an element. */
export function describe(el: XmlElement): string {
  const name = el.attrs.Name;
  return name ? `${el.name} "${clip(name, 40)}" (line ${el.line})` : `${el.name} (line ${el.line})`;
}

// ---------------------------------------------------------------------------------------------
// Primitive parsers; each returns undefined for an unreadable value.

export function parseBool(s: string): boolean | undefined {
  const t = s.trim().toLowerCase();
  if (t === 'true' || t === '1') return true;
  if (t === 'false' || t === '0') return false;
  return undefined;
}

export function parseIntInv(s: string): number | undefined {
  const t = s.trim();
  if (!/^[+-]?\d{1,10}$/.test(t)) return undefined;
  const n = Number(t);
  return n >= -2147483648 && n <= 2147483647 ? n : undefined;
}

/** float.Parse with the invariant culture: "." decimal point, optional exponent and thousands commas. */
export function parseFloatInv(s: string): number | undefined {
  let t = s.trim();
  if (/^[+-]?\d{1,3}(,\d{3})+(\.\d*)?$/.test(t)) t = t.replace(/,/g, '');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d{1,3})?$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** A list of invariant floats separated by commas (FloatCollection). */
export function parseFloatList(s: string): number[] | undefined {
  if (s.trim() === '') return [];
  const out: number[] = [];
  for (const part of s.split(',')) {
    const n = parseFloatInv(part);
    if (n === undefined) return undefined;
    out.push(n);
  }
  return out;
}

/** A string[] property: items separated by CR LF (or CR, or LF). */
export function parseStringList(s: string): string[] {
  return s === '' ? [] : s.split(/\r\n|\r|\n/);
}

const FONT_UNITS: Record<string, number> = {
  pt: 1,
  point: 1,
  px: 0.75,
  pixel: 0.75,
  world: 0.75,
  display: 0.75,
  in: 72,
  inch: 72,
  mm: 72 / 25.4,
  millimeter: 72 / 25.4,
  doc: 72 / 300,
  document: 72 / 300,
};

/**
 * A System.Drawing.Font in invariant FontConverter form: "Tahoma, 8pt, style=Bold, Underline".
 * The size may carry a unit (pt when absent); it is converted to points.
 */
export function parseFont(s: string): FontSpec | undefined {
  const parts = s.split(',').map((p) => p.trim());
  const family = parts[0] ?? '';
  if (family === '' || family.includes('=')) return undefined;
  const font = fontSpec(family, 10);
  let i = 1;
  const sizeToken = parts[1];
  if (sizeToken !== undefined && !sizeToken.includes('=')) {
    const m = /^(\d+(?:\.\d*)?|\.\d+)\s*([a-z]*)$/i.exec(sizeToken);
    if (!m) return undefined;
    const unit = (m[2] ?? '').toLowerCase() || 'pt';
    const factor = FONT_UNITS[unit];
    const size = Number(m[1]) * (factor ?? NaN);
    if (!Number.isFinite(size) || size <= 0 || size > 10000) return undefined;
    font.sizePt = size;
    i = 2;
  }
  let inStyle = false;
  for (; i < parts.length; i++) {
    let token = parts[i] ?? '';
    const eq = token.indexOf('=');
    if (eq >= 0) {
      inStyle = token.slice(0, eq).trim().toLowerCase() === 'style';
      if (!inStyle) continue; // gdiCharSet=…, gdiVerticalFont=…: nothing to keep
      token = token.slice(eq + 1).trim();
    }
    if (!inStyle) continue;
    switch (token.toLowerCase()) {
      case 'bold':
        font.bold = true;
        break;
      case 'italic':
        font.italic = true;
        break;
      case 'underline':
        font.underline = true;
        break;
      case 'strikeout':
        font.strikeout = true;
        break;
      case 'regular':
      case '':
        break;
      default:
        return undefined;
    }
  }
  return font;
}

/** Padding "Left, Top, Right, Bottom" (or one value for all four). */
export function parsePadding(s: string): PaddingModel | undefined {
  const nums = parseFloatList(s);
  if (!nums) return undefined;
  if (nums.length === 1) {
    const v = nums[0] as number;
    return { left: v, top: v, right: v, bottom: v };
  }
  if (nums.length !== 4) return undefined;
  return { left: nums[0] as number, top: nums[1] as number, right: nums[2] as number, bottom: nums[3] as number };
}

/** An enum value: its name (case-insensitive) or its number (index in `values`). */
export function parseEnum<T extends string>(s: string, values: readonly T[]): T | undefined {
  const t = s.trim();
  const lower = t.toLowerCase();
  const hit = values.find((v) => v.toLowerCase() === lower);
  if (hit !== undefined) return hit;
  if (/^\d{1,3}$/.test(t)) return values[Number(t)];
  return undefined;
}

/**
 * A [Flags] enum value: "Left, Top", "All", "None" or a number. `bits[i]` is the numeric value
 * of `names[i]`; `aliases` maps extra names (All) to sets of flags.
 */
export function parseFlags<T extends string>(
  s: string,
  names: readonly T[],
  bits: readonly number[],
  aliases: Record<string, readonly T[]> = {},
): T[] | undefined {
  const t = s.trim();
  if (/^\d{1,10}$/.test(t)) {
    const n = Number(t);
    const total = bits.reduce((a, b) => a | b, 0);
    if ((n & ~total) !== 0) return undefined;
    return names.filter((_, i) => (n & (bits[i] as number)) !== 0);
  }
  const set = new Set<T>();
  for (const part of t.split(',')) {
    const p = part.trim().toLowerCase();
    if (p === '' || p === 'none') continue;
    const name = names.find((v) => v.toLowerCase() === p);
    if (name !== undefined) {
      set.add(name);
      continue;
    }
    const aliasKey = Object.keys(aliases).find((k) => k.toLowerCase() === p);
    if (aliasKey === undefined) return undefined;
    for (const f of aliases[aliasKey] ?? []) set.add(f);
  }
  return names.filter((v) => set.has(v));
}

// ---------------------------------------------------------------------------------------------

const MAX_FLOAT = 1e7;

/** Event names as they would read without FastReport's "Event" suffix (tolerated too). */
const BARE_EVENT_NAMES: ReadonlySet<string> = new Set([
  'BeforePrint',
  'AfterPrint',
  'AfterData',
  'Click',
  'MouseMove',
  'MouseUp',
  'MouseDown',
  'MouseEnter',
  'MouseLeave',
  'BeforeLayout',
  'AfterLayout',
  'StartReport',
  'FinishReport',
  'StartPage',
  'FinishPage',
  'ManualBuild',
]);

/**
 * The attributes of one element. Every read marks the attribute as used; whatever is left
 * becomes the element's `raw`. Unreadable values give a warning and the default.
 */
export class Attrs {
  private readonly used = new Set<string>();
  readonly owner: string;

  constructor(
    readonly el: XmlElement,
    readonly ctx: LoadContext,
    owner?: string,
  ) {
    this.owner = owner ?? describe(el);
  }

  get line(): number {
    return this.el.line;
  }

  has(key: string): boolean {
    return this.el.attrs[key] !== undefined;
  }

  /** Attribute names in document order. */
  keys(): string[] {
    return Object.keys(this.el.attrs);
  }

  take(key: string): string | undefined {
    const v = this.el.attrs[key];
    if (v !== undefined) this.used.add(key);
    return v;
  }

  /** Marks an attribute as handled without reading it. */
  markUsed(key: string): void {
    if (this.has(key)) this.used.add(key);
  }

  invalid(key: string, value: string, what: string): void {
    this.ctx.warn(`${this.owner}: ${key}="${clip(value)}" is not ${what}; the default is used`);
  }

  /** True when some attribute is named `prefix` or starts with `prefix.` (Border, Fill, …). */
  hasGroup(prefix: string): boolean {
    if (this.groups === undefined) {
      this.groups = new Set();
      for (const key of this.keys()) {
        const dot = key.indexOf('.');
        this.groups.add(dot < 0 ? key : key.slice(0, dot));
      }
    }
    return this.groups.has(prefix);
  }

  private groups: Set<string> | undefined;

  /** `what` is only built when a value is unreadable (this runs for every attribute read). */
  private read<T>(key: string, def: T, parse: (s: string) => T | undefined, what: () => string): T {
    const v = this.take(key);
    if (v === undefined) return def;
    const parsed = parse(v);
    if (parsed === undefined) {
      this.invalid(key, v, what());
      return def;
    }
    return parsed;
  }

  str(key: string, def = ''): string {
    return this.take(key) ?? def;
  }

  bool(key: string, def: boolean): boolean {
    return this.read(key, def, parseBool, () => 'a boolean');
  }

  int(key: string, def: number): number {
    return this.read(key, def, parseIntInv, () => 'an integer');
  }

  /** A float; magnitudes beyond ±1e7 (px, mm, pt alike) are refused as unusable. */
  float(key: string, def: number): number {
    return this.read(
      key,
      def,
      (s) => {
        const n = parseFloatInv(s);
        return n !== undefined && Math.abs(n) <= MAX_FLOAT ? n : undefined;
      },
      () => `a number within ±${MAX_FLOAT}`,
    );
  }

  /** A float in [min, max] (clamped, as FastReport's setters do). */
  clamped(key: string, def: number, min: number, max: number): number {
    return Math.min(max, Math.max(min, this.float(key, def)));
  }

  enumOf<T extends string>(key: string, values: readonly T[], def: T): T {
    return this.read(
      key,
      def,
      (s) => parseEnum(s, values),
      () => `one of ${values.join('|')}`,
    );
  }

  flags<T extends string>(
    key: string,
    names: readonly T[],
    bits: readonly number[],
    def: readonly T[],
    aliases: Record<string, readonly T[]> = {},
  ): T[] {
    if (!this.has(key)) return [...def];
    return this.read(
      key,
      [...def],
      (s) => parseFlags(s, names, bits, aliases),
      () => `a combination of ${names.join('|')}`,
    );
  }

  color(key: string, def: Readonly<Color>): Color {
    if (!this.has(key)) return { ...def };
    return this.read(key, { ...def }, parseColor, () => 'a colour');
  }

  font(key: string, def: FontSpec): FontSpec {
    return this.read(key, def, parseFont, () => 'a font');
  }

  padding(key: string, def: PaddingModel): PaddingModel {
    return this.read(key, def, parsePadding, () => 'a padding ("left, top, right, bottom")');
  }

  floatList(key: string): number[] {
    return this.read(key, [], parseFloatList, () => 'a list of numbers');
  }

  stringList(key: string): string[] {
    const v = this.take(key);
    return v === undefined ? [] : parseStringList(v);
  }

  /**
   * Script event handlers: every attribute named …Event (BeforePrintEvent, StartReportEvent, …)
   * with a value. They are kept by name and reported, never run.
   */
  events(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const key of this.keys()) {
      if (!/^[A-Za-z]+Event$/.test(key) && !BARE_EVENT_NAMES.has(key)) continue;
      const v = this.take(key) ?? '';
      if (v.trim() !== '') out[key] = v;
    }
    if (Object.keys(out).length > 0) this.ctx.noteEvents(this.ownerName(), out);
    return out;
  }

  private ownerName(): string {
    return this.el.attrs.Name ?? this.el.name;
  }

  /** The attributes nobody read, verbatim. */
  rest(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const key of this.keys()) {
      // defineProperty: an attribute called "__proto__" stays an ordinary key.
      if (!this.used.has(key))
        Object.defineProperty(out, key, {
          value: this.el.attrs[key],
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    return out;
  }
}
