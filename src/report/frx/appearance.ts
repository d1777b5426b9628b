// Dotted sub-objects shared by many elements: Border.*, Fill.* / TextFill.*, Hyperlink.*.
//
// FastReport reads attributes grouped by their number of dots (none, one, two or more), so
// `Fill="Glass"` is applied before `Fill.Color`, and `Border.Color` (all four lines) before
// `Border.LeftLine.Color`. The readers below follow that order whatever the attribute order.

import { BLACK } from './colors.js';
import { defaultBorder, defaultHyperlink, fillOfKind } from './defaults.js';
import type { BorderLineModel, BorderModel, Color, FillModel, HyperlinkModel, LineStyle } from './model.js';
import { parseEnum } from './value-parsers.js';
import type { Attrs } from './values.js';

export const LINE_STYLES: readonly LineStyle[] = ['Solid', 'Dash', 'Dot', 'DashDot', 'DashDotDot', 'Double'];
const SIDES = ['Left', 'Right', 'Top', 'Bottom'] as const;
const SIDE_BITS = [1, 2, 4, 8] as const;

function cloneLine(l: BorderLineModel): BorderLineModel {
  return { color: { ...l.color }, style: l.style, width: l.width };
}

/** `Border.*` of an element (prefix "Border"). */
export function parseBorder(a: Attrs, prefix = 'Border'): BorderModel {
  const b = defaultBorder();
  if (!a.hasGroup(prefix)) return b;
  const lines = a.flags(`${prefix}.Lines`, SIDES, SIDE_BITS, [], { All: SIDES });
  b.lines = {
    left: lines.includes('Left'),
    right: lines.includes('Right'),
    top: lines.includes('Top'),
    bottom: lines.includes('Bottom'),
  };
  b.shadow = a.bool(`${prefix}.Shadow`, false);
  b.shadowWidth = a.float(`${prefix}.ShadowWidth`, 4);
  b.shadowColor = a.color(`${prefix}.ShadowColor`, BLACK);
  // One-dot properties set all four lines.
  const all = b.leftLine;
  all.color = a.color(`${prefix}.Color`, all.color);
  all.style = a.enumOf(`${prefix}.Style`, LINE_STYLES, all.style);
  all.width = a.float(`${prefix}.Width`, all.width);
  b.topLine = cloneLine(all);
  b.rightLine = cloneLine(all);
  b.bottomLine = cloneLine(all);
  // Two-dot properties set one line.
  for (const [key, line] of [
    ['LeftLine', b.leftLine],
    ['TopLine', b.topLine],
    ['RightLine', b.rightLine],
    ['BottomLine', b.bottomLine],
  ] as const) {
    line.color = a.color(`${prefix}.${key}.Color`, line.color);
    line.style = a.enumOf(`${prefix}.${key}.Style`, LINE_STYLES, line.style);
    line.width = a.float(`${prefix}.${key}.Width`, line.width);
  }
  return b;
}

const FILL_KINDS: readonly FillModel['kind'][] = [
  'Solid',
  'LinearGradient',
  'PathGradient',
  'Hatch',
  'Glass',
  'Texture',
];

/**
 * A fill (prefix "Fill" or "TextFill"): the prefix attribute names the fill class ("Glass",
 * "LinearGradient", …; a new fill of that class starts from its own defaults), the dotted
 * attributes set its properties. `def` must be a fresh object: it is returned or modified.
 */
export function parseFill(a: Attrs, prefix: string, def: FillModel): FillModel {
  let fill = def;
  if (!a.hasGroup(prefix)) return fill;
  const kindText = a.take(prefix);
  if (kindText !== undefined) {
    const kind = parseEnum(kindText.trim().replace(/Fill$/, ''), FILL_KINDS);
    if (kind === undefined) a.invalid(prefix, kindText, `a fill type (${FILL_KINDS.join('|')})`);
    else if (kind !== fill.kind) fill = fillOfKind(kind);
  }
  const p = `${prefix}.`;
  switch (fill.kind) {
    case 'Solid':
      fill.color = a.color(`${p}Color`, fill.color);
      break;
    case 'LinearGradient':
      fill.startColor = a.color(`${p}StartColor`, fill.startColor);
      fill.endColor = a.color(`${p}EndColor`, fill.endColor);
      fill.angle = Math.trunc(a.float(`${p}Angle`, fill.angle)) % 360;
      fill.focus = a.clamped(`${p}Focus`, fill.focus, 0, 1);
      fill.contrast = a.clamped(`${p}Contrast`, fill.contrast, 0, 1);
      break;
    case 'PathGradient':
      fill.centerColor = a.color(`${p}CenterColor`, fill.centerColor);
      fill.edgeColor = a.color(`${p}EdgeColor`, fill.edgeColor);
      fill.style = a.enumOf(`${p}Style`, ['Elliptic', 'Rectangular'] as const, fill.style);
      break;
    case 'Hatch': {
      fill.foreColor = a.color(`${p}ForeColor`, fill.foreColor);
      fill.backColor = a.color(`${p}BackColor`, fill.backColor);
      const style = a.take(`${p}Style`);
      if (style !== undefined) {
        if (/^[A-Za-z0-9]{1,40}$/.test(style.trim())) fill.style = style.trim();
        else a.invalid(`${p}Style`, style, 'a hatch style');
      }
      break;
    }
    case 'Glass':
      fill.color = a.color(`${p}Color`, fill.color);
      fill.blend = a.clamped(`${p}Blend`, fill.blend, 0, 1);
      fill.hatch = a.bool(`${p}Hatch`, fill.hatch);
      break;
    case 'Texture':
      fill.imageData = a.str(`${p}ImageData`, fill.imageData);
      fill.imageWidth = Math.max(0, a.float(`${p}ImageWidth`, fill.imageWidth));
      fill.imageHeight = Math.max(0, a.float(`${p}ImageHeight`, fill.imageHeight));
      fill.offsetX = a.float(`${p}ImageOffsetX`, fill.offsetX);
      fill.offsetY = a.float(`${p}ImageOffsetY`, fill.offsetY);
      fill.wrapMode = a.enumOf(
        `${p}WrapMode`,
        ['Clamp', 'Tile', 'TileFlipX', 'TileFlipY', 'TileFlipXY'] as const,
        fill.wrapMode,
      );
      // The designer's: it keeps the ratio when one side is edited; both sides are stored.
      a.take(`${p}PreserveAspectRatio`);
      break;
  }
  return fill;
}

const HYPERLINK_KINDS = ['URL', 'PageNumber', 'Bookmark', 'DetailReport', 'DetailPage', 'Custom'] as const;

/** `Hyperlink.*`; the less common settings (DetailReportName, …) stay in raw. */
export function parseHyperlink(a: Attrs): HyperlinkModel {
  const h = defaultHyperlink();
  if (!a.hasGroup('Hyperlink')) return h;
  h.kind = a.enumOf('Hyperlink.Kind', HYPERLINK_KINDS, h.kind);
  h.value = a.str('Hyperlink.Value');
  h.expression = a.str('Hyperlink.Expression');
  h.openLinkInNewTab = a.bool('Hyperlink.OpenLinkInNewTab', false);
  h.detailPageName = a.str('Hyperlink.DetailPageName');
  h.detailReportName = a.str('Hyperlink.DetailReportName');
  h.reportParameter = a.str('Hyperlink.ReportParameter');
  h.valuesSeparator = a.str('Hyperlink.ValuesSeparator', ';');
  return h;
}

/** The one colour a text fill (TextObject.TextFill, a gauge scale's TextFill) draws text in: a
 *  gradient its start (or centre) colour, a hatch its fore colour, a texture black. */
export function fillColor(f: FillModel): Color {
  switch (f.kind) {
    case 'Solid':
    case 'Glass':
      return f.color;
    case 'LinearGradient':
      return f.startColor;
    case 'PathGradient':
      return f.centerColor;
    case 'Hatch':
      return f.foreColor;
    default:
      return { r: 0, g: 0, b: 0, a: 255 };
  }
}
