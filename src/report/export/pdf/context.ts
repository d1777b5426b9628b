// What every drawing module of the PDF exporter shares: the graphics state (graphics.ts), the
// font service, the per-document glyph and image caches, and where warnings go.

import type { FontService } from '../../text/index.js';
import type { PdfGlyphs } from './glyphs.js';
import { PdfGraphics } from './graphics.js';
import { addSignatureField, type Doc, type Ref } from './kit.js';
import type { PdfImages } from './pictures.js';
import type { DocumentLinks } from '../links.js';

export { isTransparent, num, PT_PER_PX, rgb, type Rect } from './graphics.js';

export class PdfContext extends PdfGraphics {
  /** The document's internal links (bookmarks, page numbers), when it has any. */
  links: DocumentLinks | undefined;
  /** Signature fields made so far (DigitalSignatureObject), for the document's form. */
  readonly signatureFields: Ref[] = [];
  private readonly fieldNames = new Set<string>();

  /** An empty signature field over the box, named by its object (made unique: a name printed
   *  on several pages gets the page's number). */
  /** The 1-based index of the page being drawn. */
  pageIndex = 0;

  signatureField(name: string, x: number, y: number, w: number, h: number): void {
    const page = this.pageIndex;
    let field = name || 'Signature';
    if (this.fieldNames.has(field)) field = `${field}_p${page}`;
    for (let n = 2; this.fieldNames.has(field); n++) field = `${name}_p${page}_${n}`;
    this.fieldNames.add(field);
    this.signatureFields.push(addSignatureField(this.doc, field, x, y, w, h));
  }
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
