// The FastReport and System.Drawing values a script builds and passes to report objects: Color
// (`Color.Red`, `Color.FromArgb(…)`), fills (`new SolidFill(c)`, `new LinearGradientFill(…)`),
// Font (`new Font("Arial", 10, FontStyle.Bold)`) and Border. Each is a script object holding a
// copy of its model; a member assignment on one that belongs to a report object (`Text1.Border.
// Lines = …`) writes back to that object through `commit`.

import { type Color, KNOWN_COLOR_NAMES, knownColor, rgba } from '../../frx/colors.js';
import { defaultBorder, fillOfKind, solidFill } from '../../frx/defaults.js';
import type { BorderModel, FillModel, LineStyle } from '../../frx/model.js';
import { Decimal } from '../../expr/index.js';
import { ValueError } from '../../expr/value-error.js';
import { Dbl, EnumVal, Flt, type Value } from '../../expr/values.js';
import { ScriptObject } from '../../script/collections.js';
import type { FontSpec } from '../../text/index.js';

/** A script number (any numeric kind) as a JS number. */
export function num(v: Value, what: string): number {
  if (typeof v === 'number') return v;
  if (v instanceof Dbl || v instanceof Flt) return v.v;
  if (v instanceof Decimal) return v.toNumber();
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof EnumVal) return v.value;
  throw new ValueError('InvalidCastException', `${what} takes a number`);
}

export function bool(v: Value, what: string): boolean {
  if (typeof v === 'boolean') return v;
  throw new ValueError('InvalidCastException', `${what} takes a bool`);
}

const missing = (type: string, name: string): ValueError =>
  new ValueError('MissingMemberException', `'${type}' has no member '${name}'`);

export class ColorValue extends ScriptObject {
  readonly typeName = 'System.Drawing.Color';
  protected readonly label = 'Color';
  constructor(readonly color: Readonly<Color>) {
    super();
  }
  member(name: string): Value {
    const c = this.color;
    switch (name) {
      case 'R':
        return c.r;
      case 'G':
        return c.g;
      case 'B':
        return c.b;
      case 'A':
        return c.a;
      case 'IsEmpty':
        return c.a === 0 && c.r === 0 && c.g === 0 && c.b === 0;
      case 'Name':
        return this.call('ToString', []);
    }
    throw missing('Color', name);
  }
  call(name: string, args: readonly Value[]): Value {
    const c = this.color;
    switch (name) {
      case 'ToArgb':
        return (c.a << 24) | (c.r << 16) | (c.g << 8) | c.b | 0;
      case 'Equals':
        return args[0] instanceof ColorValue && sameColor(args[0].color, c);
      case 'ToString': {
        const known = KNOWN_COLOR_NAMES.find((n) => sameColor(knownColor(n) as Color, c));
        return `Color [${known ?? `A=${c.a}, R=${c.r}, G=${c.g}, B=${c.b}`}]`;
      }
    }
    throw missing('Color', name);
  }
}

const sameColor = (a: Readonly<Color>, b: Readonly<Color>): boolean =>
  a.r === b.r && a.g === b.g && a.b === b.b && a.a === b.a;

const byte = (v: Value, what: string): number => {
  const n = num(v, what);
  if (!Number.isInteger(n) || n < 0 || n > 255)
    throw new ValueError('ArgumentException', `${what}: a colour component must be 0 to 255`);
  return n;
};

/** `Color.X` and `Color.FromArgb(…)`, `Color.FromName(…)`. */
export class ColorStatics extends ScriptObject {
  readonly typeName = 'System.Drawing.Color';
  protected readonly label = 'Color';
  member(name: string): Value {
    const c = name === 'Empty' ? rgba(0, 0, 0, 0) : knownColor(name);
    if (!c || (!KNOWN_COLOR_NAMES.includes(name) && name !== 'Empty')) throw missing('Color', name);
    return new ColorValue(c);
  }
  call(name: string, args: readonly Value[]): Value {
    if (name === 'FromName') {
      const c = knownColor(String(args[0] ?? ''));
      return new ColorValue(c ?? rgba(0, 0, 0, 0));
    }
    if (name !== 'FromArgb') throw missing('Color', name);
    const a = args as Value[];
    if (a.length === 1) {
      const v = num(a[0] as Value, 'Color.FromArgb') >>> 0;
      return new ColorValue(rgba((v >>> 16) & 255, (v >>> 8) & 255, v & 255, (v >>> 24) & 255));
    }
    if (a.length === 2 && a[1] instanceof ColorValue)
      return new ColorValue({ ...a[1].color, a: byte(a[0] as Value, 'Color.FromArgb') });
    if (a.length === 3)
      return new ColorValue(rgba(...(a.map((x) => byte(x, 'Color.FromArgb')) as [number, number, number])));
    if (a.length === 4) {
      const [al, r, g, b] = a.map((x) => byte(x, 'Color.FromArgb')) as [number, number, number, number];
      return new ColorValue(rgba(r, g, b, al));
    }
    throw new ValueError('ArgumentException', `Color.FromArgb takes 1 to 4 arguments, not ${a.length}`);
  }
}

export function colorOf(v: Value, what: string): Color {
  if (v instanceof ColorValue) return { ...v.color };
  throw new ValueError('InvalidCastException', `${what} takes a Color`);
}

/** A fill (SolidFill, LinearGradientFill, GlassFill …), changed in place by member assignments. */
export class FillValue extends ScriptObject {
  protected readonly label = 'Fill';
  constructor(
    public fill: FillModel,
    private readonly commit: (f: FillModel) => void = () => {},
  ) {
    super();
  }
  get typeName(): string {
    return `FastReport.${this.fill.kind}Fill`;
  }
  member(name: string): Value {
    const f = this.fill;
    if (name === 'Color' && 'color' in f) return new ColorValue(f.color);
    if (f.kind === 'LinearGradient') {
      if (name === 'StartColor') return new ColorValue(f.startColor);
      if (name === 'EndColor') return new ColorValue(f.endColor);
      if (name === 'Angle') return f.angle;
      if (name === 'Focus') return new Flt(f.focus);
      if (name === 'Contrast') return new Flt(f.contrast);
    }
    throw missing(this.typeName, name);
  }
  override setMember(name: string, v: Value): void {
    const f = { ...this.fill } as FillModel;
    if (name === 'Color' && 'color' in f) f.color = colorOf(v, name);
    else if (f.kind === 'LinearGradient' && name === 'StartColor') f.startColor = colorOf(v, name);
    else if (f.kind === 'LinearGradient' && name === 'EndColor') f.endColor = colorOf(v, name);
    else if (f.kind === 'LinearGradient' && name === 'Angle') f.angle = num(v, name);
    else if (f.kind === 'LinearGradient' && name === 'Focus') f.focus = num(v, name);
    else if (f.kind === 'LinearGradient' && name === 'Contrast') f.contrast = num(v, name);
    else throw missing(this.typeName, name);
    this.fill = f;
    this.commit(f);
  }
  call(name: string): Value {
    if (name === 'ToString') return this.typeName;
    throw missing(this.typeName, name);
  }
}

/** FontStyle flags as FastReport scripts combine them (`FontStyle.Bold | FontStyle.Italic`). */
export const FONT_STYLE: Readonly<Record<string, number>> = {
  Regular: 0,
  Bold: 1,
  Italic: 2,
  Underline: 4,
  Strikeout: 8,
};

export class FontValue extends ScriptObject {
  readonly typeName = 'System.Drawing.Font';
  protected readonly label = 'Font';
  constructor(readonly font: Readonly<FontSpec>) {
    super();
  }
  member(name: string): Value {
    const f = this.font;
    switch (name) {
      case 'Name':
      case 'FontFamily':
        return f.family;
      case 'Size':
      case 'SizeInPoints':
        return new Flt(f.sizePt);
      case 'Bold':
        return f.bold;
      case 'Italic':
        return f.italic;
      case 'Underline':
        return f.underline;
      case 'Strikeout':
        return f.strikeout;
      case 'Style':
        return (f.bold ? 1 : 0) | (f.italic ? 2 : 0) | (f.underline ? 4 : 0) | (f.strikeout ? 8 : 0);
    }
    throw missing('Font', name);
  }
  call(name: string): Value {
    if (name === 'ToString') return `[Font: Name=${this.font.family}, Size=${this.font.sizePt}]`;
    throw missing('Font', name);
  }
}

/** `new Font(family, size[, style])` or `new Font(font, style)`. */
function newFont(args: readonly Value[]): FontValue {
  const [a, b, c] = args;
  const flags = (v: Value | undefined): number => (v === undefined ? 0 : num(v, 'FontStyle'));
  let base: FontSpec;
  let style: number;
  if (a instanceof FontValue) {
    base = { ...a.font };
    style = flags(b);
  } else {
    if (typeof a !== 'string' || b === undefined)
      throw new ValueError('ArgumentException', 'new Font(name, size[, style])');
    const size = num(b, 'Font size');
    if (!(size > 0 && size < 10_000)) throw new ValueError('ArgumentException', 'a font size must be positive');
    base = { family: a, sizePt: size, bold: false, italic: false, underline: false, strikeout: false };
    style = flags(c);
  }
  return new FontValue({
    ...base,
    bold: (style & 1) !== 0,
    italic: (style & 2) !== 0,
    underline: (style & 4) !== 0,
    strikeout: (style & 8) !== 0,
  });
}

/** BorderLines flags (`BorderLines.All`). */
export const BORDER_LINES: Readonly<Record<string, number>> = {
  None: 0,
  Left: 1,
  Right: 2,
  Top: 4,
  Bottom: 8,
  All: 15,
};
const LINE_STYLES: readonly LineStyle[] = ['Solid', 'Dash', 'Dot', 'DashDot', 'DashDotDot', 'Double'];

export class BorderValue extends ScriptObject {
  readonly typeName = 'FastReport.Border';
  protected readonly label = 'Border';
  constructor(
    public border: BorderModel,
    private readonly commit: (b: BorderModel) => void = () => {},
  ) {
    super();
  }
  member(name: string): Value {
    const b = this.border;
    switch (name) {
      case 'Lines':
        return (b.lines.left ? 1 : 0) | (b.lines.right ? 2 : 0) | (b.lines.top ? 4 : 0) | (b.lines.bottom ? 8 : 0);
      case 'Color':
        return new ColorValue(b.leftLine.color);
      case 'Width':
        return new Flt(b.leftLine.width);
      case 'Style':
        return b.leftLine.style;
      case 'Shadow':
        return b.shadow;
      case 'ShadowWidth':
        return new Flt(b.shadowWidth);
      case 'ShadowColor':
        return new ColorValue(b.shadowColor);
    }
    throw missing('Border', name);
  }
  override setMember(name: string, v: Value): void {
    const b: BorderModel = structuredClone(this.border);
    const lines = [b.leftLine, b.topLine, b.rightLine, b.bottomLine];
    switch (name) {
      case 'Lines': {
        const n = num(v, name);
        b.lines = { left: (n & 1) !== 0, right: (n & 2) !== 0, top: (n & 4) !== 0, bottom: (n & 8) !== 0 };
        break;
      }
      case 'Color':
        for (const l of lines) l.color = colorOf(v, name);
        break;
      case 'Width':
        for (const l of lines) l.width = num(v, name);
        break;
      case 'Style': {
        const s = typeof v === 'string' ? v : LINE_STYLES[num(v, name)];
        if (!s || !LINE_STYLES.includes(s as LineStyle))
          throw new ValueError('ArgumentException', `no line style ${s}`);
        for (const l of lines) l.style = s as LineStyle;
        break;
      }
      case 'Shadow':
        b.shadow = bool(v, name);
        break;
      case 'ShadowWidth':
        b.shadowWidth = num(v, name);
        break;
      case 'ShadowColor':
        b.shadowColor = colorOf(v, name);
        break;
      default:
        throw missing('Border', name);
    }
    this.border = b;
    this.commit(b);
  }
  call(name: string): Value {
    if (name === 'ToString') return this.typeName;
    throw missing('Border', name);
  }
}

/** The FastReport and System.Drawing types a script may create (undefined for other types). */
export function constructValue(type: string, args: readonly Value[]): Value | undefined {
  const short = type.replace(/^(FastReport|System\.Drawing)\./, '');
  switch (short) {
    case 'SolidFill':
      return new FillValue(solidFill(args[0] === undefined ? rgba(0, 0, 0) : colorOf(args[0], 'SolidFill')));
    case 'LinearGradientFill': {
      const f = fillOfKind('LinearGradient');
      if (f.kind === 'LinearGradient') {
        if (args[0] !== undefined) f.startColor = colorOf(args[0], 'LinearGradientFill');
        if (args[1] !== undefined) f.endColor = colorOf(args[1], 'LinearGradientFill');
        if (args[2] !== undefined) f.angle = num(args[2], 'LinearGradientFill angle');
      }
      return new FillValue(f);
    }
    case 'GlassFill': {
      const f = fillOfKind('Glass');
      if (f.kind === 'Glass' && args[0] !== undefined) f.color = colorOf(args[0], 'GlassFill');
      return new FillValue(f);
    }
    case 'Font':
      return newFont(args);
    case 'Border':
      return new BorderValue(defaultBorder());
  }
  return undefined;
}

/** Enum members scripts name (`HorzAlign.Center`, `FontStyle.Bold`, `BorderLines.All`). */
export function enumMember(name: string): Value | undefined {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return undefined;
  const type = name.slice(0, dot).replace(/^(FastReport|System\.Drawing)\./, '');
  const member = name.slice(dot + 1);
  switch (type) {
    case 'FontStyle':
      return Object.hasOwn(FONT_STYLE, member) ? (FONT_STYLE[member] as number) : undefined;
    case 'BorderLines':
      return Object.hasOwn(BORDER_LINES, member) ? (BORDER_LINES[member] as number) : undefined;
    case 'HorzAlign':
      return ['Left', 'Center', 'Right', 'Justify'].includes(member) ? member : undefined;
    case 'VertAlign':
      return ['Top', 'Center', 'Bottom'].includes(member) ? member : undefined;
    case 'LineStyle':
      return (LINE_STYLES as readonly string[]).includes(member) ? member : undefined;
  }
  return undefined;
}

/** A script value for a double-typed property. */
export const dbl = (n: number): Value => new Dbl(n);
