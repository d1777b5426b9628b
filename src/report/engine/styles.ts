// Styles, even-row styles and highlight conditions applied to an object's runtime appearance,
// as FastReport does: the object's Style when the report starts (border, fill, and for text
// objects text fill and font, per the style's Apply* flags), its EvenStyle on even rows of its
// band (only the fill when EvenStylePriority is UseFill), then the first true highlight condition.

import type { ReportWarnings } from '../errors.js';
import type { BorderModel, FillModel, HighlightConditionModel, StyleModel } from '../frx/model.js';
import type { FontSpec } from '../text/index.js';

/** The appearance a style can change. */
export interface Appearance {
  fill: FillModel;
  border: BorderModel;
  font?: FontSpec;
  textFill?: FillModel;
  visible: boolean;
}

export class StyleSheet {
  private readonly byName = new Map<string, StyleModel>();
  private readonly missing = new Set<string>();

  constructor(
    styles: readonly StyleModel[],
    private readonly warnings: ReportWarnings,
  ) {
    for (const s of styles) if (!this.byName.has(s.name)) this.byName.set(s.name, s);
  }

  find(name: string, owner: string): StyleModel | undefined {
    if (name === '') return undefined;
    const s = this.byName.get(name);
    if (!s && !this.missing.has(name)) {
      this.missing.add(name);
      this.warnings.add(`${owner}: style "${name}" is not defined; it is ignored`);
    }
    return s;
  }

  /** ApplyStyle: the style's border and fill, plus text fill and font for text objects. */
  apply(a: Appearance, name: string, owner: string): void {
    const s = this.find(name, owner);
    if (!s) return;
    if (s.applyBorder) a.border = s.border;
    if (s.applyFill) a.fill = s.fill;
    if (a.textFill !== undefined && s.applyTextFill) a.textFill = s.textFill;
    if (a.font !== undefined && s.applyFont) a.font = s.font;
  }

  /** ApplyEvenStyle: UseFill takes only the fill, UseAll applies the whole style. */
  applyEven(a: Appearance, name: string, priority: 'UseFill' | 'UseAll', owner: string): void {
    const s = this.find(name, owner);
    if (!s) return;
    if (priority === 'UseFill') a.fill = s.fill;
    else this.apply(a, name, owner);
  }
}

/** HighlightCondition applied (ApplyCondition): the flagged parts, and the visibility. */
export function applyHighlight(a: Appearance, c: HighlightConditionModel): void {
  if (c.applyBorder) a.border = c.border;
  if (c.applyFill) a.fill = c.fill;
  if (c.applyTextFill && a.textFill !== undefined) a.textFill = c.textFill;
  if (c.applyFont && a.font !== undefined) a.font = c.font;
  a.visible = c.visible;
}

export function isTransparentFill(f: FillModel): boolean {
  switch (f.kind) {
    case 'Solid':
      return f.color.a === 0;
    case 'LinearGradient':
      return f.startColor.a === 0 && f.endColor.a === 0;
    case 'PathGradient':
      return f.centerColor.a === 0 && f.edgeColor.a === 0;
    case 'Hatch':
      return f.foreColor.a === 0 && f.backColor.a === 0;
    case 'Glass':
      return f.color.a === 0;
    case 'Texture':
      return f.imageData === '';
  }
}

export function hasBorder(b: BorderModel): boolean {
  return b.lines.left || b.lines.top || b.lines.right || b.lines.bottom || b.shadow;
}
