// Reading attribute values the way FastReport's FRReader does (invariant culture): booleans,
// numbers, lists, fonts, paddings, enums and flags. Each returns undefined for an unreadable value.

import { fontSpec, type FontSpec } from '../text/font-spec.js';
import type { PaddingModel } from './model.js';

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

/** "MM/dd/yyyy HH:mm:ss" (invariant) → a Date holding those wall-clock fields in UTC. */
export function parseInvariantDate(s: string): Date | null {
  const m = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*$/.exec(s);
  if (!m) return null;
  const [month, day, year, h, min, sec] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((x) => Number(x ?? 0)) as number[];
  const d = new Date(Date.UTC(year as number, (month as number) - 1, day, h, min, sec));
  return d.getUTCMonth() === (month as number) - 1 && d.getUTCDate() === day ? d : null;
}
