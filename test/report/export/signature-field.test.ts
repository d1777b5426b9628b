// DigitalSignatureObject in the PDF: an empty signature field where the object prints,
// as FastReport's PDF export leaves one for a reader to sign; read back with pdf.js. A field
// printed on several pages gets a name per page (field names are the form's keys).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../../src/report/index.js';
import { FIXTURE_DIR, NWIND_TEXT } from '../engine/helpers.js';

interface Field {
  type: string;
  name: string;
  rect: number[];
  page: number;
}

async function signatureFields(pdf: Buffer): Promise<Field[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false }).promise;
  const out: Field[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    for (const a of (await page.getAnnotations()) as { fieldType?: string; fieldName?: string; rect: number[] }[])
      if (a.fieldType === 'Sig') out.push({ type: a.fieldType, name: a.fieldName ?? '', rect: a.rect, page: n });
  }
  return out;
}

describe('signature fields', () => {
  it("put one at the Purchase Order's signature line", async () => {
    const r = await renderReport({
      template: readFileSync(`${FIXTURE_DIR}Purchase Order.frx`),
      data: { datasetXml: NWIND_TEXT },
      format: 'pdf',
      maxPages: 3,
      truncatePages: true,
    });
    const fields = await signatureFields(r.output as Buffer);
    const printed = r.prepared.pages.flatMap((p) =>
      p.items
        .filter((i) => i.kind === 'box' && i.signature)
        .map((i) => ({ page: p.index, item: i, height: p.heightPx })),
    );
    expect(printed.length).toBeGreaterThan(0);
    expect(fields).toHaveLength(printed.length);
    for (const [k, f] of fields.entries()) {
      const { page, item, height } = printed[k] as (typeof printed)[number];
      expect(f.page).toBe(page);
      // PDF points from the bottom-left: x and the top edge from the item's px.
      expect(f.rect[0]).toBeCloseTo(item.x * 0.75, 1);
      expect(f.rect[3]).toBeCloseTo((height - item.y) * 0.75, 1);
    }
    expect(new Set(fields.map((f) => f.name)).size).toBe(fields.length);
  });
});
