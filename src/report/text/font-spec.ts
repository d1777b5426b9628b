// A font as a FastReport object names it (family, size in points, styles), and points → pixels.

/** Points → FastReport pixels (96 dpi). */
export const PX_PER_PT = 96 / 72;

/** A font as a FastReport object names it (`Font="Tahoma, 9pt, style=Bold"`). */
export interface FontSpec {
  family: string;
  sizePt: number;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strikeout: boolean;
}

/** TextObject's default font: Arial 10pt, regular. */
export const DEFAULT_FONT: Readonly<FontSpec> = Object.freeze({
  family: 'Arial',
  sizePt: 10,
  bold: false,
  italic: false,
  underline: false,
  strikeout: false,
});

/** Builds a FontSpec; styles default to false. */
export function fontSpec(
  family: string,
  sizePt: number,
  styles: Partial<Pick<FontSpec, 'bold' | 'italic' | 'underline' | 'strikeout'>> = {},
): FontSpec {
  return {
    family,
    sizePt,
    bold: styles.bold ?? false,
    italic: styles.italic ?? false,
    underline: styles.underline ?? false,
    strikeout: styles.strikeout ?? false,
  };
}
