// Attribute value readers: colours, fonts, numbers, paddings, flags.

import { describe, expect, it } from 'vitest';
import { KNOWN_COLOR_NAMES, colorToCss, knownColor, parseColor } from '../../../src/report/frx/colors.js';
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
} from '../../../src/report/frx/value-parsers.js';

describe('parseColor', () => {
  it('knows the .NET colour names, case-insensitively', () => {
    expect(parseColor('WhiteSmoke')).toEqual({ r: 245, g: 245, b: 245, a: 255 });
    expect(parseColor('whitesmoke')).toEqual({ r: 245, g: 245, b: 245, a: 255 });
    expect(parseColor('Transparent')).toEqual({ r: 255, g: 255, b: 255, a: 0 });
    expect(parseColor('YellowGreen')).toEqual({ r: 154, g: 205, b: 50, a: 255 });
    expect(parseColor('Control')).toEqual({ r: 240, g: 240, b: 240, a: 255 });
    expect(parseColor(' Navy ')).toEqual({ r: 0, g: 0, b: 128, a: 255 });
  });
  it('has the whole KnownColor list', () => {
    expect(KNOWN_COLOR_NAMES.length).toBeGreaterThanOrEqual(174);
    for (const name of [
      'ActiveBorder',
      'WindowText',
      'AliceBlue',
      'YellowGreen',
      'ButtonFace',
      'MenuHighlight',
      'RebeccaPurple',
    ]) {
      expect(knownColor(name), name).toBeDefined();
    }
    expect(new Set(KNOWN_COLOR_NAMES.map((n) => n.toLowerCase())).size).toBe(KNOWN_COLOR_NAMES.length);
  });
  it('reads "R, G, B" and "A, R, G, B"', () => {
    expect(parseColor('230, 255, 204')).toEqual({ r: 230, g: 255, b: 204, a: 255 });
    expect(parseColor('128, 10, 20, 30')).toEqual({ r: 10, g: 20, b: 30, a: 128 });
    expect(parseColor('256, 0, 0')).toBeUndefined();
    expect(parseColor('1, 2')).toBeUndefined();
    expect(parseColor('1.5, 2, 3')).toBeUndefined();
  });
  it('reads #RRGGBB, #AARRGGBB, 0x hex and ARGB integers', () => {
    expect(parseColor('#FF8000')).toEqual({ r: 255, g: 128, b: 0, a: 255 });
    expect(parseColor('#80FF8000')).toEqual({ r: 255, g: 128, b: 0, a: 128 });
    expect(parseColor('0x00FF00')).toEqual({ r: 0, g: 255, b: 0, a: 255 });
    expect(parseColor('-16777216')).toEqual({ r: 0, g: 0, b: 0, a: 255 });
    expect(parseColor('#GG0000')).toBeUndefined();
    expect(parseColor('NoSuchColour')).toBeUndefined();
    expect(parseColor('__proto__')).toBeUndefined();
    expect(parseColor('')).toEqual({ r: 0, g: 0, b: 0, a: 0 });
  });
  it('gives CSS notation', () => {
    expect(colorToCss({ r: 255, g: 128, b: 0, a: 255 })).toBe('#ff8000');
    expect(colorToCss({ r: 255, g: 255, b: 255, a: 0 })).toBe('rgba(255, 255, 255, 0)');
  });
});

describe('parseFont', () => {
  it('reads family, size and styles', () => {
    expect(parseFont('Tahoma, 9pt, style=Bold, Underline')).toEqual({
      family: 'Tahoma',
      sizePt: 9,
      bold: true,
      italic: false,
      underline: true,
      strikeout: false,
    });
    expect(parseFont('Arial, 10pt')).toEqual({
      family: 'Arial',
      sizePt: 10,
      bold: false,
      italic: false,
      underline: false,
      strikeout: false,
    });
    expect(parseFont('Segoe UI, 8.25pt, style=Italic, Strikeout')).toMatchObject({
      family: 'Segoe UI',
      sizePt: 8.25,
      italic: true,
      strikeout: true,
    });
    expect(parseFont('Arial, 16px')?.sizePt).toBe(12);
    expect(parseFont('Arial, 12')?.sizePt).toBe(12);
    expect(parseFont('Arial, 10pt, style=Bold, gdiCharSet=204')).toMatchObject({ bold: true });
  });
  it('refuses what is not a font', () => {
    expect(parseFont('')).toBeUndefined();
    expect(parseFont('Arial, big')).toBeUndefined();
    expect(parseFont('Arial, 0pt')).toBeUndefined();
    expect(parseFont('Arial, 10pt, style=Fancy')).toBeUndefined();
    expect(parseFont('style=Bold')).toBeUndefined();
  });
});

describe('numbers, paddings, lists and enums', () => {
  it('reads invariant numbers only', () => {
    expect(parseFloatInv('718.2')).toBe(718.2);
    expect(parseFloatInv('-94.5')).toBe(-94.5);
    expect(parseFloatInv(' 1e3 ')).toBe(1000);
    expect(parseFloatInv('1,234.5')).toBe(1234.5);
    expect(parseFloatInv('1,5')).toBeUndefined();
    expect(parseFloatInv('NaN')).toBeUndefined();
    expect(parseFloatInv('Infinity')).toBeUndefined();
    expect(parseFloatInv('')).toBeUndefined();
    expect(parseIntInv('15')).toBe(15);
    expect(parseIntInv('2147483648')).toBeUndefined();
    expect(parseIntInv('1.5')).toBeUndefined();
    expect(parseBool('True')).toBe(true);
    expect(parseBool('false')).toBe(false);
    expect(parseBool('yes')).toBeUndefined();
  });
  it('reads paddings and lists', () => {
    expect(parsePadding('2, 0, 2, 0')).toEqual({ left: 2, top: 0, right: 2, bottom: 0 });
    expect(parsePadding('4')).toEqual({ left: 4, top: 4, right: 4, bottom: 4 });
    expect(parsePadding('1, 2')).toBeUndefined();
    expect(parseFloatList('0,95.5')).toEqual([0, 95.5]);
    expect(parseStringList('OrderID\r\nProductID')).toEqual(['OrderID', 'ProductID']);
  });
  it('reads enums and flag sets by name or number', () => {
    expect(parseEnum('center', ['Left', 'Center', 'Right'] as const)).toBe('Center');
    expect(parseEnum('2', ['Left', 'Center', 'Right'] as const)).toBe('Right');
    expect(parseEnum('Middle', ['Left', 'Center', 'Right'] as const)).toBeUndefined();
    const sides = ['Left', 'Right', 'Top', 'Bottom'] as const;
    const bits = [1, 2, 4, 8];
    expect(parseFlags('Left, Top', sides, bits)).toEqual(['Left', 'Top']);
    expect(parseFlags('All', sides, bits, { All: sides })).toEqual(['Left', 'Right', 'Top', 'Bottom']);
    expect(parseFlags('None', sides, bits)).toEqual([]);
    expect(parseFlags('12', sides, bits)).toEqual(['Top', 'Bottom']);
    expect(parseFlags('16', sides, bits)).toBeUndefined();
    expect(parseFlags('Left, Up', sides, bits)).toBeUndefined();
  });
});
