// Visual regression of the PDF export: the first page of a list (Simple List), a grouped report
// (Groups) and an invoice (Purchase Order), rendered with nwind.xml, rasterised by pdftoppm at
// 50 dpi and compared pixel by pixel with the reference PNGs in pdf-reference/ (see README.md
// there for the tolerance, the poppler version they were made with and how to remake them).
//
// Tolerance: a pixel differs when one of its R, G, B values differs by more than 12 (of 255);
// a page may have at most 0.01 % differing pixels (24 of the 414 × 585 of an A4 page). That
// absorbs rounding noise (JPEG decoders, anti-aliasing of a few edge pixels), and nothing else:
// the checks at the end prove that moving one small text object by 2 px (one device pixel),
// changing one colour, or dropping one pale row fill exceeds it.
//
// UPDATE_PDF_REFERENCE=1 writes the references anew (then commit them). Skipped with a message
// when poppler-utils are missing (an error under REQUIRE_POPPLER=1).

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { moveItem, type PreparedReport } from '../../../src/report/engine/prepared.js';
import { exportPdfSync } from '../../../src/report/export/pdf/index.js';
import { decodePng } from '../../../src/report/export/pdf/png.js';
import { renderReport } from '../../../src/report/render.js';
import { POPPLER_AVAILABLE, popplerVersion, rasterPage, runTool, type RasterPage } from '../../support/poppler.js';
import { FIXED_NOW, FIXTURE_DIR, NWIND_TEXT } from '../engine/helpers.js';

const REFERENCE_DIR = join(dirname(fileURLToPath(import.meta.url)), 'pdf-reference');
const DPI = 50;
/** A pixel differs when a channel differs by more than this. */
const CHANNEL_DELTA = 12;
/** Share of a page's pixels that may differ. */
const MAX_DIFFERING = 0.0001;
const UPDATE = process.env.UPDATE_PDF_REFERENCE === '1';

const CASES = [
  { fixture: 'Simple List.frx', page: 1, reference: 'simple-list-p1.png' },
  { fixture: 'Groups.frx', page: 1, reference: 'groups-p1.png' },
  { fixture: 'Purchase Order.frx', page: 1, reference: 'purchase-order-p1.png' },
] as const;

const dir = mkdtempSync(join(tmpdir(), 'pdf-visual-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function prepare(fixture: string): PreparedReport {
  return renderReport({
    template: readFileSync(FIXTURE_DIR + fixture),
    data: { datasetXml: NWIND_TEXT },
    format: 'html',
    now: FIXED_NOW,
  }).prepared;
}

let counter = 0;
function pdfFile(report: PreparedReport): string {
  const file = join(dir, `r${++counter}.pdf`);
  writeFileSync(file, exportPdfSync(report));
  return file;
}

export interface RasterDiff {
  differing: number;
  allowed: number;
  total: number;
}

/** Counts the pixels that differ beyond the channel tolerance (the sizes must be equal). */
function compare(a: RasterPage, b: RasterPage): RasterDiff {
  expect(`${b.width}×${b.height}`).toBe(`${a.width}×${a.height}`);
  let differing = 0;
  for (let i = 0; i < a.rgb.length; i += 3) {
    const d = Math.max(
      Math.abs((a.rgb[i] ?? 0) - (b.rgb[i] ?? 0)),
      Math.abs((a.rgb[i + 1] ?? 0) - (b.rgb[i + 1] ?? 0)),
      Math.abs((a.rgb[i + 2] ?? 0) - (b.rgb[i + 2] ?? 0)),
    );
    if (d > CHANNEL_DELTA) differing++;
  }
  const total = a.width * a.height;
  return { differing, allowed: Math.floor(total * MAX_DIFFERING), total };
}

function readReference(file: string): RasterPage {
  const img = decodePng(readFileSync(file));
  if (img.channels !== 3 || img.alpha) throw new Error(`${file} is not an opaque RGB PNG`);
  return { width: img.width, height: img.height, rgb: img.pixels };
}

describe.skipIf(!POPPLER_AVAILABLE)('PDF pages against the reference images', () => {
  it.each(CASES)('$fixture, page $page', ({ fixture, page, reference }) => {
    const file = pdfFile(prepare(fixture));
    const refPath = join(REFERENCE_DIR, reference);
    if (UPDATE) {
      mkdirSync(REFERENCE_DIR, { recursive: true });
      const png = runTool('pdftoppm', ['-r', String(DPI), '-f', String(page), '-l', String(page), '-png', file]);
      if (png.status !== 0) throw new Error(png.stderr);
      writeFileSync(refPath, png.stdout);
    }
    if (!existsSync(refPath))
      throw new Error(`no reference image ${refPath}: run this test with UPDATE_PDF_REFERENCE=1 to make it`);
    const diff = compare(readReference(refPath), rasterPage(file, page, DPI));
    expect(
      diff.differing,
      `${diff.differing} of ${diff.total} pixels differ from ${reference} (at most ${diff.allowed} may); ` +
        (`rasterised with poppler ${popplerVersion()} (see pdf-reference/README.md for the version the ` +
          `references come from)`),
    ).toBeLessThanOrEqual(diff.allowed);
  });
});

describe.skipIf(!POPPLER_AVAILABLE)('the tolerance catches real regressions', () => {
  // Made on first use: this block's body also runs (to collect the tests) when they are skipped.
  let base: { report: PreparedReport; raster: RasterPage } | undefined;
  const modified = (change: (r: PreparedReport) => void): RasterDiff => {
    if (!base) {
      const report = prepare('Simple List.frx');
      base = { report, raster: rasterPage(pdfFile(report), 1, DPI) };
    }
    const r = structuredClone(base.report);
    change(r);
    return compare(base.raster, rasterPage(pdfFile(r), 1, DPI));
  };
  const firstItem = (
    r: PreparedReport,
    name: string,
  ): NonNullable<PreparedReport['pages'][number]['items'][number]> => {
    const it = r.pages[0]?.items.find((i) => i.name === name);
    if (!it) throw new Error(`no ${name} on page 1`);
    return it;
  };

  it('the same report rasterises to the same pixels', () => {
    expect(modified(() => undefined).differing).toBe(0);
  });

  it('one phone number moved 2 px to the right', () => {
    const d = modified((r) => moveItem(firstItem(r, 'Text8'), 2, 0));
    expect(d.differing).toBeGreaterThan(d.allowed);
  });

  it('one phone number moved 2 px down', () => {
    const d = modified((r) => moveItem(firstItem(r, 'Text8'), 0, 2));
    expect(d.differing).toBeGreaterThan(d.allowed);
  });

  it('the title drawn dark blue instead of black', () => {
    const d = modified((r) => {
      const t = firstItem(r, 'Text1');
      if (t.kind === 'text') t.color = { r: 0, g: 0, b: 139, a: 255 };
    });
    expect(d.differing).toBeGreaterThan(d.allowed);
  });

  it('one even row of Groups without its AliceBlue fill', () => {
    const groups = prepare('Groups.frx');
    const before = rasterPage(pdfFile(groups), 1, DPI);
    const row = groups.pages[0]?.items.find(
      (i) => i.kind === 'text' && i.name === 'Text2' && i.fill.kind === 'Solid' && i.fill.color.a === 255,
    );
    if (row?.kind !== 'text') throw new Error('no filled row on page 1 of Groups');
    row.fill = { kind: 'Solid', color: { r: 255, g: 255, b: 255, a: 0 } };
    const d = compare(before, rasterPage(pdfFile(groups), 1, DPI));
    expect(d.differing).toBeGreaterThan(d.allowed);
  });

  it('one city name in another font size (10 pt instead of 9 pt)', () => {
    const d = modified((r) => {
      const t = firstItem(r, 'Text14');
      if (t.kind === 'text') t.font = { ...t.font, sizePt: t.font.sizePt + 1 };
    });
    expect(d.differing).toBeGreaterThan(d.allowed);
  });
});
