// What every drawing module of the PDF exporter shares: the graphics state (graphics.ts), the
// font service, the per-document glyph and image caches, and where warnings go.

import type { FontService } from '../../text/index.js';
import type { PdfGlyphs } from './glyphs.js';
import { PdfGraphics } from './graphics.js';
import type { Doc } from './kit.js';
import type { PdfImages } from './pictures.js';
import type { DocumentLinks } from '../links.js';

export { isTransparent, num, PT_PER_PX, rgb, type Rect } from './graphics.js';

export class PdfContext extends PdfGraphics {
  /** The document's internal links (bookmarks, page numbers), when it has any. */
  links: DocumentLinks | undefined;
  constructor(
    doc: Doc,
    readonly fonts: FontService,
    readonly glyphs: PdfGlyphs,
    readonly images: PdfImages,
    readonly warn: (message: string) => void,
  ) {
    super(doc);
  }
}
