// The bookkeeping every element needs while it is read: which attributes were used (the rest
// become `raw`), script event handlers, and warnings for values that cannot be read (FastReport
// skips those too). The value parsers themselves are in value-parsers.ts.

import { ReportWarnings } from '../errors.js';
import type { FontSpec } from '../text/font-spec.js';
import { parseColor, type Color } from './colors.js';
import type { PaddingModel } from './model.js';
import {
  parseBool,
  parseEnum,
  parseFlags,
  parseFloatInv,
  parseFloatList,
  parseFont,
  parseIntInv,
  parsePadding,
  parseStringList,
} from './value-parsers.js';
import type { XmlElement } from './xml.js';

/** The handlers the engine runs (engine/script.ts): objects' and bands' BeforePrint, AfterData and
 *  AfterPrint, bands' BeforeLayout and AfterLayout, a table's or matrix's ManualBuild, pages' StartPage and
 *  FinishPage, the report's StartReport and FinishReport, dialog forms' Load, Shown,
 *  FormClosing and FormClosed and their OK button's Click. Handlers of the preview window's
 *  mouse (Click, MouseEnter …) run only where a user clicks, and a dialog control's (Checked-
 *  Changed, ValueChanged …) only where a user changes it: a report run without a user has
 *  neither, as FastReport's own exports, so they are not reported. */
const RUN_EVENTS = new Set([
  'BeforePrintEvent',
  'AfterPrintEvent',
  'AfterDataEvent',
  'BeforeLayoutEvent',
  'AfterLayoutEvent',
  'ManualBuildEvent',
  'StartPageEvent',
  'FinishPageEvent',
  'StartReportEvent',
  'FinishReportEvent',
  'LoadEvent',
  'ShownEvent',
  'FormClosingEvent',
  'FormClosedEvent',
]);
const PREVIEW_EVENTS = /^(Click|DoubleClick|Mouse\w*)Event$/;

function isRunEvent(element: string, key: string): boolean {
  if (PREVIEW_EVENTS.test(key) || element.endsWith('Control')) return true;
  return RUN_EVENTS.has(key);
}

/** Shared state of one load: warnings and the script event handlers met on the way. */
export class LoadContext {
  readonly warnings = new ReportWarnings();
  private readonly eventRefs: string[] = [];
  private eventCount = 0;

  warn(message: string): void {
    this.warnings.add(message);
  }

  noteEvents(owner: string, element: string, events: Record<string, string>): void {
    for (const key of Object.keys(events)) {
      if (isRunEvent(element, key)) continue;
      this.eventCount++;
      if (this.eventRefs.length < 20) this.eventRefs.push(`${owner}.${key}=${clip(events[key] ?? '', 40)}`);
    }
  }

  /** One warning that lists the event handlers the engine does not run yet. */
  eventWarning(): string | null {
    if (this.eventCount === 0) return null;
    const more =
      this.eventCount > this.eventRefs.length ? `, … and ${this.eventCount - this.eventRefs.length} more` : '';
    return `Script event handlers not run yet: ${this.eventRefs.join(', ')}${more}`;
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
      // Every dotted prefix of every name: "Watermark.TextFill.Color" is in the groups
      // Watermark and Watermark.TextFill.
      for (const key of this.keys()) {
        for (let dot = key.indexOf('.'); dot >= 0; dot = key.indexOf('.', dot + 1)) this.groups.add(key.slice(0, dot));
        this.groups.add(key);
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
   * with a value. They are kept by name; those the engine does not run yet are reported.
   */
  events(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const key of this.keys()) {
      if (!/^[A-Za-z]+Event$/.test(key) && !BARE_EVENT_NAMES.has(key)) continue;
      const v = this.take(key) ?? '';
      if (v.trim() !== '') out[key] = v;
    }
    if (Object.keys(out).length > 0) this.ctx.noteEvents(this.ownerName(), this.el.name, out);
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
