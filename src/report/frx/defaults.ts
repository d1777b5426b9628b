// FastReport's constructor defaults for the shared sub-objects. Every call returns fresh
// objects, so a model can be modified without affecting other objects.

import { DEFAULT_FONT, type FontSpec } from '../text/font-spec.js';
import { BLACK, TRANSPARENT, type Color } from './colors.js';
import type { BorderLineModel, BorderModel, FillModel, FormatModel, HyperlinkModel, PaddingModel } from './model.js';

export function color(c: Readonly<Color>): Color {
  return { r: c.r, g: c.g, b: c.b, a: c.a };
}

/** DrawUtils.DefaultReportFont: Arial 10pt. */
export function defaultFont(): FontSpec {
  return { ...DEFAULT_FONT };
}

export function padding(left: number, top: number, right: number, bottom: number): PaddingModel {
  return { left, top, right, bottom };
}

/** TextObject padding: 2, 0, 2, 0. */
export function defaultTextPadding(): PaddingModel {
  return padding(2, 0, 2, 0);
}

export function defaultBorderLine(): BorderLineModel {
  return { color: color(BLACK), style: 'Solid', width: 1 };
}

export function defaultBorder(): BorderModel {
  return {
    lines: { left: false, top: false, right: false, bottom: false },
    leftLine: defaultBorderLine(),
    topLine: defaultBorderLine(),
    rightLine: defaultBorderLine(),
    bottomLine: defaultBorderLine(),
    shadow: false,
    shadowWidth: 4,
    shadowColor: color(BLACK),
  };
}

export function solidFill(c: Readonly<Color>): FillModel {
  return { kind: 'Solid', color: color(c) };
}

/** Objects: transparent solid fill. */
export function defaultFill(): FillModel {
  return solidFill(TRANSPARENT);
}

/** TextObject.TextFill: solid black. */
export function defaultTextFill(): FillModel {
  return solidFill(BLACK);
}

/** A fill of the given kind with that fill class's constructor defaults. */
export function fillOfKind(kind: FillModel['kind']): FillModel {
  switch (kind) {
    case 'Solid':
      return defaultFill();
    case 'LinearGradient':
      // LinearGradientFill(): Black → White, angle 0, focus and contrast clamped to 1.
      return {
        kind,
        startColor: color(BLACK),
        endColor: { r: 255, g: 255, b: 255, a: 255 },
        angle: 0,
        focus: 1,
        contrast: 1,
      };
    case 'PathGradient':
      return { kind, centerColor: color(BLACK), edgeColor: { r: 255, g: 255, b: 255, a: 255 }, style: 'Elliptic' };
    case 'Hatch':
      return {
        kind,
        foreColor: color(BLACK),
        backColor: { r: 255, g: 255, b: 255, a: 255 },
        style: 'BackwardDiagonal',
      };
    case 'Glass':
      return { kind, color: { r: 255, g: 255, b: 255, a: 255 }, blend: 0.2, hatch: true };
    case 'Texture':
      return { kind, imageData: '', imageWidth: 0, imageHeight: 0, offsetX: 0, offsetY: 0, wrapMode: 'Tile' };
  }
}

export function defaultHyperlink(): HyperlinkModel {
  return {
    kind: 'URL',
    value: '',
    expression: '',
    openLinkInNewTab: false,
    detailPageName: '',
    detailReportName: '',
    reportParameter: '',
    valuesSeparator: ';',
  };
}

export function generalFormat(): FormatModel {
  return { kind: 'General' };
}

/** The defaults the Number, Currency and Percent formats share. */
const NUMBER_BASE_DEFAULTS = { useLocale: true, decimalDigits: 2, decimalSeparator: '.', groupSeparator: ',' } as const;

/** A format of the given kind with its constructor defaults (en-US where culture-dependent). */
export function formatOfKind(kind: FormatModel['kind']): FormatModel {
  switch (kind) {
    case 'General':
      return { kind };
    case 'Number':
      return { kind, ...NUMBER_BASE_DEFAULTS, negativePattern: 0 };
    case 'Currency':
      return { kind, ...NUMBER_BASE_DEFAULTS, currencySymbol: '$', positivePattern: 0, negativePattern: 0 };
    case 'Percent':
      return { kind, ...NUMBER_BASE_DEFAULTS, percentSymbol: '%', positivePattern: 0, negativePattern: 0 };
    case 'Custom':
      return { kind, format: 'G' };
    case 'Date':
      return { kind, format: 'd' };
    case 'Time':
      return { kind, format: 't' };
    case 'Boolean':
      return { kind, trueText: 'True', falseText: 'False' };
  }
}
