// SVG pictures as PDF vectors, through svg-to-pdfkit. The SVG has been rebuilt from an allow-list
// by the engine (engine/svg-sanitise.ts); here the converter is also kept from reaching anything
// outside the document: images only from inline PNG/JPEG data, no external documents, and the
// report's own font files for text (so every font is embedded).

import { createRequire } from 'node:module';
import type { FontService } from '../../text/index.js';
import type { Rect } from './graphics.js';
import type { Doc } from './kit.js';

/** What drawing an SVG needs of the PDF context. */
export interface SvgCanvas {
  readonly doc: Doc;
  readonly fonts: FontService;
  warn(message: string): void;
}

type SvgToPdf = (doc: unknown, svg: string, x: number, y: number, options: Record<string, unknown>) => void;

let converter: SvgToPdf | undefined;
// Loaded on first use: most reports have no SVG.
const svgToPdf = (): SvgToPdf => (converter ??= createRequire(import.meta.url)('svg-to-pdfkit') as SvgToPdf);

type ParsedColor = [[number, number, number], number] | undefined;
function gray(c: ParsedColor): ParsedColor {
  if (!c) return c;
  const [[r, g, b], a] = c;
  const y = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
  return [[y, y, y], a];
}

const SAFE_IMAGE = /^data:image\/(?:png|jpeg);base64,[A-Za-z0-9+/=]+$/;

/** Draws the SVG into `r` (px): stretched to it (`fit` 'none'), fitted with its aspect ratio
 *  kept ('meet'), or at its own size from the top-left ('natural'). */
export function drawSvg(
  ctx: SvgCanvas,
  svg: string,
  r: Rect,
  opts: { fit: 'none' | 'meet' | 'natural'; grayscale: boolean },
  what: string,
): void {
  const fit = opts.fit;
  const warnings = new Set<string>();
  try {
    svgToPdf()(ctx.doc, svg, r.x, r.y, {
      width: r.w,
      height: r.h,
      // Our page's user unit is the px already.
      assumePt: true,
      preserveAspectRatio: fit === 'none' ? 'none' : fit === 'meet' ? 'xMidYMid meet' : 'xMinYMin slice',
      imageCallback: (link: string) => {
        const l = link.replace(/\s+/g, '');
        return SAFE_IMAGE.test(l) ? l : '';
      },
      documentCallback: () => null,
      fontCallback: (family: string, bold: boolean, italic: boolean) =>
        ctx.fonts.face(
          family
            .split(',')[0]
            ?.trim()
            .replace(/^['"]|['"]$/g, '') || 'Arial',
          bold,
          italic,
        ).path,
      warningCallback: (message: string) => warnings.add(message),
      // Grayscale: every colour the converter reads becomes its luma (Rec. 601, as the PNG path).
      ...(opts.grayscale ? { colorCallback: gray } : {}),
    });
  } catch (e) {
    warnings.add(e instanceof Error ? e.message : String(e));
  }
  for (const w of [...warnings].slice(0, 3)) ctx.warn(`${what}: SVG: ${w}`);
}
