// Which face draws a requested family (the table in README.md), with what CSS font-family list
// for the HTML exporter and what vertical metrics per em.

import type { FaceFamily } from './font-faces.js';

/**
 * Vertical metrics per em. GDI+ (and so FastReport) spaces lines by the font family's line
 * spacing = hhea ascender + |descender| + lineGap, and puts the baseline `ascent` below a line's
 * top.
 */
export interface EmMetrics {
  ascent: number;
  descent: number;
  lineGap: number;
}

interface FamilyInfo {
  face: FaceFamily;
  /** CSS font-family list for the HTML exporter. */
  css: string;
  /** Whether the face has the same advance widths as the requested family. */
  metricCompatible: boolean;
  /**
   * The requested family's own vertical metrics, where the face differs from them: line heights
   * then follow the original font, as FastReport lays out with it.
   */
  metrics?: EmMetrics;
}

const SANS_METRIC = 'Arial, Arimo, "Liberation Sans", Helvetica, sans-serif';
const SANS_SUBST = 'Arimo, "Liberation Sans", Arial, sans-serif';
const SERIF_METRIC = '"Times New Roman", Tinos, "Liberation Serif", Times, serif';
const MONO_METRIC = '"Courier New", Cousine, "Liberation Mono", Courier, monospace';
const MONO_SUBST = 'Cousine, "Liberation Mono", "Courier New", monospace';
const DEJAVU = '"DejaVu Sans", Verdana, sans-serif';

const sans = (
  metricCompatible: boolean,
  css = metricCompatible ? SANS_METRIC : SANS_SUBST,
  metrics?: EmMetrics,
): FamilyInfo =>
  metrics ? { face: 'Arimo', css, metricCompatible, metrics } : { face: 'Arimo', css, metricCompatible };

// Keys are normalised family names (see normaliseFamily).
export const FAMILIES = new Map<string, FamilyInfo>([
  ['arial', sans(true)],
  ['helvetica', sans(true, 'Helvetica, Arial, Arimo, "Liberation Sans", sans-serif')],
  ['arimo', sans(true)],
  ['liberation sans', sans(true)],
  ['microsoft sans serif', sans(false)],
  ['ms sans serif', sans(false)],
  ['segoe ui', sans(false)],
  ['calibri', sans(false)],
  ['sans-serif', sans(false)],
  // Tahoma's advance widths are within 0.5 % of Arial's (README.md); its line spacing is its own:
  // hhea 2049 + 423 (+0) of 2048 units/em.
  ['tahoma', sans(false, SANS_SUBST, { ascent: 2049 / 2048, descent: 423 / 2048, lineGap: 0 })],
  ['times new roman', { face: 'Tinos', css: SERIF_METRIC, metricCompatible: true }],
  ['times', { face: 'Tinos', css: SERIF_METRIC, metricCompatible: true }],
  ['tinos', { face: 'Tinos', css: SERIF_METRIC, metricCompatible: true }],
  ['liberation serif', { face: 'Tinos', css: SERIF_METRIC, metricCompatible: true }],
  ['serif', { face: 'Tinos', css: 'Tinos, "Liberation Serif", "Times New Roman", serif', metricCompatible: false }],
  ['courier new', { face: 'Cousine', css: MONO_METRIC, metricCompatible: true }],
  ['courier', { face: 'Cousine', css: MONO_METRIC, metricCompatible: true }],
  ['cousine', { face: 'Cousine', css: MONO_METRIC, metricCompatible: true }],
  ['liberation mono', { face: 'Cousine', css: MONO_METRIC, metricCompatible: true }],
  ['consolas', { face: 'Cousine', css: MONO_SUBST, metricCompatible: false }],
  ['monospace', { face: 'Cousine', css: MONO_SUBST, metricCompatible: false }],
  // Verdana's widths are DejaVu Sans's to 0.1 % (README.md); line spacing 1005 + 209 per 1000.
  [
    'verdana',
    {
      face: 'DejaVu Sans',
      css: DEJAVU,
      metricCompatible: false,
      metrics: { ascent: 1.005, descent: 0.209, lineGap: 0 },
    },
  ],
  ['dejavu sans', { face: 'DejaVu Sans', css: DEJAVU, metricCompatible: true }],
]);

export const UNKNOWN_FAMILY: FamilyInfo = sans(false);

/** "  'Times  New Roman' " → "times new roman". */
export function normaliseFamily(family: string): string {
  return family
    .trim()
    .replace(/^(["'])(.*)\1$/s, '$2')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** Where a requested family goes. */
export interface FamilyMapping {
  /** The face family that draws it. */
  face: FaceFamily;
  /** False when the family is unknown and Arimo stands in (a warning is due). */
  known: boolean;
  /** Whether the face has the requested family's advance widths. */
  metricCompatible: boolean;
  /** CSS font-family list for the HTML exporter. */
  css: string;
  /** Line spacing, ascent and descent per em used for this family. */
  metrics?: EmMetrics;
}
