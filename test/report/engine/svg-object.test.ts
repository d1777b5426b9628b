// SVG pictures: SVGObject prints its SVG as vectors in the PDF and as an image in the
// HTML, after the engine rebuilt it from an allow-list: nothing that runs or reaches outside the
// document survives, whatever the template holds.

import { describe, expect, it } from 'vitest';
import type { PreparedPicture } from '../../../src/report/engine/prepared.js';
import { sanitiseSvg } from '../../../src/report/engine/svg-sanitise.js';
import { renderReport } from '../../../src/report/index.js';
import { rasterizeRgb } from '../../support/barcode-readers.js';
import { POPPLER_AVAILABLE } from '../../support/poppler.js';
import { demoFile } from '../../support/fastreport-demos.js';

const clean = (svg: string): string => {
  const r = sanitiseSvg(Buffer.from(svg));
  if ('error' in r) throw new Error(r.error);
  return r.svg;
};

describe('the SVG allow-list', () => {
  it('keeps shapes, gradients, transforms and references inside the document', () => {
    const out = clean(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><linearGradient id="g"><stop ' +
        'offset="0" stop-color="red"/></linearGradient></defs><g transform="scale(2)"><rect width="5" ' +
        'height="5" fill="url(#g)" style="stroke:blue;stroke-width:1"/><use href="#g"/></g></svg>',
    );
    expect(out).toContain('<linearGradient id="g"><stop offset="0" stop-color="red"></stop></linearGradient>');
    expect(out).toContain('fill="url(#g)"');
    expect(out).toContain('style="stroke:blue;stroke-width:1"');
    expect(out).toContain('<use href="#g">');
    expect(out.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  });

  it('drops scripts, handlers, foreign content, style sheets and every outside reference', () => {
    const out = clean(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script>' +
        '<style>rect{fill:url(http://evil/x)}</style><foreignObject><div>x</div></foreignObject>' +
        '<a href="javascript:alert(3)"><rect width="1" height="1"/></a>' +
        '<image href="http://evil/pic.png"/><image xlink:href="file:///etc/passwd"/>' +
        '<image href="data:image/png;base64,iVBORw0KGgo="/><use href="other.svg#x"/>' +
        '<rect fill="url(http://evil/p)" style="fill:url(https://evil/q);stroke:red" width="2"/></svg>',
    );
    for (const bad of ['script', 'alert', 'onload', 'style>', 'foreignObject', 'evil', 'passwd', 'other.svg', '<a'])
      expect(out).not.toContain(bad);
    // An inline PNG stays, and the rectangle keeps its safe parts.
    expect(out).toContain('href="data:image/png;base64,iVBORw0KGgo="');
    expect(out).toContain('<rect style="stroke:red" width="2">');
  });

  it('drops a plain DOCTYPE, refuses one with entities, and refuses what is not SVG', () => {
    expect(clean('<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd"><svg><circle r="1"/></svg>')).toContain(
      '<circle r="1">',
    );
    expect(sanitiseSvg(Buffer.from('<!DOCTYPE svg [<!ENTITY a "b">]><svg>&a;</svg>'))).toEqual({
      error: 'its DOCTYPE declares entities',
    });
    expect(sanitiseSvg(Buffer.from('<html/>'))).toEqual({ error: 'its root element is not <svg>' });
    expect('error' in sanitiseSvg(Buffer.from('<svg><g></svg>'))).toBe(true);
  });
});

const DEMO = 'Reports/SVG.frx';
describe.runIf(POPPLER_AVAILABLE)('the SVG demo', () => {
  it('prints its four SVGs as PDF vectors (in colour, in grey where Grayscale is set) with no warning', async () => {
    const r = await renderReport({ template: demoFile(DEMO), data: {}, format: 'pdf' });
    expect(r.warnings).toEqual([]);
    const pictures = (r.prepared.pages[0]?.items ?? []).filter((i): i is PreparedPicture => i.kind === 'picture');
    expect(pictures.map((p) => p.mime)).toEqual(Array(4).fill('image/svg+xml'));
    // Vectors: the PDF holds no image.
    expect((r.output as Buffer).includes(Buffer.from('/Subtype /Image'))).toBe(false);
    const img = rasterizeRgb(r.output as Buffer, 1, 48);
    const k = 48 / 96;
    /** Pixels of a picture's box that are coloured (not grey) and that are not white. */
    const count = (p: PreparedPicture) => {
      let coloured = 0;
      let inked = 0;
      for (let y = Math.ceil(p.y * k); y < (p.y + p.height) * k; y++)
        for (let x = Math.ceil(p.x * k); x < (p.x + p.width) * k; x++) {
          const i = (y * img.width + x) * 3;
          const [r0, g0, b0] = [img.data[i] ?? 0, img.data[i + 1] ?? 0, img.data[i + 2] ?? 0];
          if (Math.max(r0, g0, b0) - Math.min(r0, g0, b0) > 40) coloured++;
          if (r0 + g0 + b0 < 600) inked++;
        }
      return { coloured, inked };
    };
    const [simple, grey, , stretched] = pictures.map(count);
    expect(simple?.coloured).toBeGreaterThan(500);
    expect(stretched?.coloured).toBeGreaterThan(500);
    expect(grey?.inked).toBeGreaterThan(500);
    expect(grey?.coloured).toBe(0);
  });

  it('writes them into the HTML as SVG images rebuilt from the allow-list', async () => {
    const r = await renderReport({ template: demoFile(DEMO), data: {}, format: 'html' });
    const images = [...String(r.output).matchAll(/src="data:image\/svg\+xml;base64,([^"]+)"/g)];
    expect(images).toHaveLength(4);
    const svg = Buffer.from(images[0]?.[1] ?? '', 'base64').toString('utf8');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).not.toContain('DOCTYPE');
  });
});
