// FastReport's `TextRenderType="HtmlTags"` (legacy `HtmlTags="true"`): a small tag subset parsed
// into styled runs (html-lines.ts breaks them into lines with per-run fonts).
//
// FastReport renders HtmlTags text with AdvancedTextRenderer (FastReport.Base/Utils/
// TextRenderer.cs, Paragraph.WrapHtmlLines; HtmlTextRenderer.cs serves TextRenderType
// "HtmlParagraph"). Its rules, which this parser follows:
// - `<br>`, `<br/>`, `<br />` (exactly these, case-sensitive) are line breaks, as are \n / \r\n;
// - tags are matched case-insensitively at a '<': `<b> <i> <u> <strike> <sub> <sup>` switch a
//   style on, `</b> </i> </u> </strike>` switch it off and `</sub> </sup>` return to the
//   baseline — flags, not a stack: `<b><b>x</b>y` leaves y regular, and `</b>` turns off the
//   object's own bold too;
// - `<font` … `>` (the next '>' ends it; no '>' → literal text) reads `color="…"`, `face="…"`,
//   `size="…"` (double quotes only). color: `#RRGGBB` (hex digits as a number: `#F00` is
//   #000F00) or a colour name; face is set even when absent (`<font color=…>` returns to the
//   object's font); size in points, `+n`/`-n` relative to the current size. `</font>` returns
//   colour, face and size to the object's;
// - sub/sup text is drawn at 0.6 × the size, shifted by +0.45 / −0.15 × the font's line height;
// - `<img …>` draws its picture (never fetched here: its alt text, default " ", stands in);
// - anything else starting with '<' is literal text ("<p>", "<span>", "< b>");
// - entities as in entities.ts.
// One deliberate addition: `<s>` / `</s>` are accepted as `<strike>` / `</strike>` (FastReport
// shows them as text).
// Parsing never throws.

import { decodeEntityAt } from './entities.js';
import { type RunFlags, sameFlags } from './run-flags.js';

/** A piece of text in one style. A run whose text is "\n" is a line break. */
export interface StyledRun extends RunFlags {
  text: string;
  /** `#rrggbb`, or a colour name as written (lower-cased); undefined = the object's colour. */
  color?: string;
  /** Font family from `<font face>`; undefined = the object's family. */
  face?: string;
  /** Font size in points from `<font size>`; undefined = the object's size. */
  sizePt?: number;
  /** For an `<img>` stand-in: its src (the text is its alt). */
  imageSrc?: string;
}

type Style = Omit<StyledRun, 'text' | 'imageSrc'>;

/** The object's own style, which HtmlTags text starts from. */
export interface BaseStyle {
  sizePt?: number;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strikeout?: boolean;
}

function sameStyle(a: Style, b: Style): boolean {
  return sameFlags(a, b) && a.color === b.color && a.face === b.face && a.sizePt === b.sizePt;
}

function withStyle(style: Style, text: string): StyledRun {
  const r: StyledRun = {
    text,
    bold: style.bold,
    italic: style.italic,
    underline: style.underline,
    strike: style.strike,
    sub: style.sub,
    sup: style.sup,
  };
  if (style.color !== undefined) r.color = style.color;
  if (style.face !== undefined) r.face = style.face;
  if (style.sizePt !== undefined) r.sizePt = style.sizePt;
  return r;
}

/** The value of `name="…"` inside a tag that ends at `right`, searched from `from`. */
function attr(text: string, name: string, from: number, right: number): string | undefined {
  const at = text.indexOf(`${name}="`, from);
  if (at < 0 || at >= right) return undefined;
  const start = at + name.length + 2;
  const end = text.indexOf('"', start);
  if (end < 0 || end >= right) return undefined;
  return text.slice(start, end);
}

function parseColor(value: string): string | undefined {
  let v = value;
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
  if (v.startsWith('#')) {
    const hex = v.slice(1);
    if (!/^[0-9A-Fa-f]{1,8}$/.test(hex)) return undefined; // .NET would throw; keep the colour
    return `#${(parseInt(hex, 16) & 0xffffff).toString(16).padStart(6, '0')}`;
  }
  const name = v.trim();
  return /^[A-Za-z]+$/.test(name) ? name.toLowerCase() : undefined;
}

function parseSize(value: string, current: number | undefined, baseSizePt: number): number | undefined | null {
  const v = value.trim();
  const sign = v[0];
  const rest = sign === '+' || sign === '-' ? v.slice(1) : v;
  if (!/^\s*(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(rest)) return null; // unparsable: size unchanged
  const n = Number(rest);
  const from = current ?? baseSizePt;
  let size = sign === '+' ? from + n : sign === '-' ? from - n : n;
  if (!(size > 0)) size = 0;
  return size === 0 ? undefined : size; // 0 = the object's size
}

/**
 * Parses HtmlTags text into styled runs (adjacent runs of equal style merged; line breaks as
 * runs of "\n"). `base` is the object's font style: the text starts in it and closing tags
 * return to regular, as in FastReport.
 */
export function parseHtmlTags(text: string, base: BaseStyle = {}): StyledRun[] {
  const baseSize = base.sizePt !== undefined && base.sizePt > 0 ? base.sizePt : 10;
  let style: Style = {
    bold: base.bold ?? false,
    italic: base.italic ?? false,
    underline: base.underline ?? false,
    strike: base.strikeout ?? false,
    sub: false,
    sup: false,
  };
  const runs: StyledRun[] = [];
  let buf = '';
  const flush = (): void => {
    if (buf === '') return;
    const last = runs[runs.length - 1];
    if (last && last.text !== '\n' && last.imageSrc === undefined && sameStyle(last, style)) last.text += buf;
    else runs.push(withStyle(style, buf));
    buf = '';
  };
  const lineBreak = (): void => {
    flush();
    runs.push(withStyle(style, '\n'));
  };

  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i] ?? '';
    if (c === '\r' || c === '\n') {
      lineBreak();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    if (c === '&') {
      const d = decodeEntityAt(text, i);
      if (d) {
        buf += d.value;
        i = d.end;
        continue;
      }
      buf += c;
      i++;
      continue;
    }
    if (c !== '<') {
      buf += c;
      i++;
      continue;
    }
    // '<': a line break, a known tag, or literal text.
    const br = text.startsWith('<br>', i) ? 4 : text.startsWith('<br/>', i) ? 5 : text.startsWith('<br />', i) ? 6 : 0;
    if (br) {
      lineBreak();
      i += br;
      continue;
    }
    const next = { ...style };
    let end = -1;
    const lower3 = text.slice(i, i + 3).toLowerCase();
    const lower4 = text.slice(i, i + 4).toLowerCase();
    const lower5 = text.slice(i, i + 5).toLowerCase();
    const lower6 = text.slice(i, i + 6).toLowerCase();
    if (lower3 === '<b>') {
      next.bold = true;
      end = i + 3;
    } else if (lower3 === '<i>') {
      next.italic = true;
      end = i + 3;
    } else if (lower3 === '<u>') {
      next.underline = true;
      end = i + 3;
    } else if (lower3 === '<s>') {
      next.strike = true;
      end = i + 3;
    } else if (lower4 === '</b>') {
      next.bold = false;
      end = i + 4;
    } else if (lower4 === '</i>') {
      next.italic = false;
      end = i + 4;
    } else if (lower4 === '</u>') {
      next.underline = false;
      end = i + 4;
    } else if (lower4 === '</s>') {
      next.strike = false;
      end = i + 4;
    } else if (lower5 === '<sub>') {
      next.sub = true;
      next.sup = false;
      end = i + 5;
    } else if (lower5 === '<sup>') {
      next.sup = true;
      next.sub = false;
      end = i + 5;
    } else if (lower5 === '<img ') {
      const right = text.indexOf('>', i + 5);
      if (right > 0) {
        flush();
        const src = attr(text, 'src', i + 5, right);
        const image = withStyle(style, attr(text, 'alt', i + 5, right) ?? ' ');
        if (src !== undefined) image.imageSrc = src;
        runs.push(image);
        i = right + 1;
        continue;
      }
    } else if (lower5 === '<font') {
      const right = text.indexOf('>', i + 5);
      if (right > 0) {
        const color = attr(text, 'color', i + 5, right);
        const face = attr(text, 'face', i + 5, right);
        const size = attr(text, 'size', i + 5, right);
        if (color !== undefined) {
          const parsed = parseColor(color);
          if (parsed !== undefined) next.color = parsed;
        }
        if (face !== undefined) next.face = face;
        else delete next.face;
        if (size !== undefined) {
          const s = parseSize(size, style.sizePt, baseSize);
          if (s !== null) {
            if (s === undefined) delete next.sizePt;
            else next.sizePt = s;
          }
        }
        end = right + 1;
      }
    } else if (lower6 === '</sub>' || lower6 === '</sup>') {
      next.sub = false;
      next.sup = false;
      end = i + 6;
    } else if (text.slice(i, i + 8).toLowerCase() === '<strike>') {
      next.strike = true;
      end = i + 8;
    } else if (text.slice(i, i + 9).toLowerCase() === '</strike>') {
      next.strike = false;
      end = i + 9;
    } else if (text.slice(i, i + 7).toLowerCase() === '</font>') {
      delete next.color;
      delete next.face;
      delete next.sizePt;
      end = i + 7;
    }
    if (end < 0) {
      buf += c;
      i++;
      continue;
    }
    flush();
    style = next;
    i = end;
  }
  flush();
  return runs;
}
