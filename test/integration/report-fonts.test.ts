// The fonts of the API's HTML reports: the head links the faces the pages use under /fonts/,
// whose files are WOFF2 versions of the very faces the engine measures with (same advances),
// public, immutable and content-addressed; the CSP lets the report load them and nothing else.
// Until a face's WOFF2 is made, its own file is the answer, at once and not to be stored.
import * as fontkit from 'fontkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTML_CSP } from '../../src/api/srs.js';
import { readFileSync } from 'node:fs';
import { allFaces, webFontFileName, webFonts } from '../../src/report/index.js';
import { extraFaces, getFace } from '../../src/report/text/index.js';
import { dropTestDatabase } from '../support/databases.js';
import { startSrsFixture, type SrsFixture } from './srs-fixture.js';

const INVOICE = '/api/srs/1/invoice.frx.html?app_name=demo&order_id=1004';

describe('fonts of the HTML reports', () => {
  let f: SrsFixture;
  beforeAll(async () => {
    f = await startSrsFixture('sqlite');
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  it('the invoice links the faces it uses under /fonts/, relative to the report, and the CSP allows them', async () => {
    const r = await f.as(f.adminJwt, INVOICE);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-security-policy')).toBe(HTML_CSP);
    expect(HTML_CSP).toContain("font-src 'self'");
    expect(HTML_CSP).not.toMatch(/font-src[^;]*data:/);
    const rules = [...r.text.matchAll(/@font-face\{[^}]*\}/g)].map((m) => m[0]);
    const arimo = getFace('Arimo', false, false);
    expect(rules).toContain(
      `@font-face{font-family:"Arimo";src:url("../../../fonts/${webFontFileName(arimo)}") format("woff2");` +
        'font-weight:400;font-style:normal;font-display:swap}',
    );
    // Resolved against the report's URL, each link is this server's font route.
    for (const m of r.text.matchAll(/url\("([^"]+)"\)/g)) {
      const url = new URL(m[1]!, f.inst.url + INVOICE);
      expect(url.pathname).toMatch(/^\/fonts\/[a-z-]+\.[0-9a-f]{16}\.woff2$/);
    }
    // The text's family lists name the served face first.
    expect(r.text).toMatch(/font-family:Arimo,Arial, Arimo/);
  });

  it('answers a face not yet compressed with its own file at once, while the compression waits', async () => {
    const face = getFace('Arimo', false, true);
    expect(webFonts.keptWoff2(face)).toBeUndefined();
    const before = webFonts.stats();
    // Held: no compression starts, so an answer that waited for one would never come.
    const release = webFonts.hold();
    try {
      const res = await fetch(`${f.inst.url}/fonts/${webFontFileName(face)}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('font/ttf');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('etag')).toBeNull();
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(face.path))).toBe(true);
      // Answered with no compression run, and the face is queued for one.
      expect(webFonts.stats().compressions).toBe(before.compressions);
      expect(webFonts.stats().waiting).toBe(before.waiting + 1);
    } finally {
      release();
    }
  });

  it('serves a face as WOFF2 with the advances the engine measures with, publicly, cached for a year', async () => {
    const face = getFace('Arimo', true, false);
    // The first request has it compressed; waiting for that here, the next answer is its WOFF2.
    await fetch(`${f.inst.url}/fonts/${webFontFileName(face)}`).then((r) => r.arrayBuffer());
    await webFonts.woff2(face);
    const res = await fetch(`${f.inst.url}/fonts/${webFontFileName(face)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('font/woff2');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('wOF2');
    const decoded = fontkit.create(bytes) as fontkit.Font;
    expect(decoded.unitsPerEm).toBe(face.unitsPerEm);
    expect(decoded.numGlyphs).toBe(face.font.numGlyphs);
    for (const ch of 'INVOICE Unit price 0123456789 €äß') {
      const cp = ch.codePointAt(0)!;
      expect(decoded.glyphForCodePoint(cp).advanceWidth, ch).toBe(face.advance(cp));
    }
    const again = await fetch(`${f.inst.url}/fonts/${webFontFileName(face)}`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('a WOFF 1.0 face (DejaVu Sans) is served as WOFF2 too', async () => {
    const face = getFace('DejaVu Sans', false, false);
    const first = await fetch(`${f.inst.url}/fonts/${webFontFileName(face)}`);
    expect(first.headers.get('content-type')).toBe('font/woff');
    expect(
      Buffer.from(await first.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('wOFF');
    await webFonts.woff2(face);
    const res = await fetch(`${f.inst.url}/fonts/${webFontFileName(face)}`);
    expect(res.status).toBe(200);
    const decoded = fontkit.create(Buffer.from(await res.arrayBuffer())) as fontkit.Font;
    expect(decoded.glyphForCodePoint(0x2713).advanceWidth).toBe(face.advance(0x2713));
  });

  it('an unknown face or an old hash is a 404 in the error envelope', async () => {
    const name = webFontFileName(getFace('Tinos', false, true));
    for (const file of [
      name.replace(/\.[0-9a-f]{16}\./, '.0000000000000000.'),
      'comic-sans.0123456789abcdef.woff2',
      'x',
    ]) {
      const res = await fetch(`${f.inst.url}/fonts/${file}`);
      expect(res.status, file).toBe(404);
      const body = (await res.json()) as any;
      expect(body).toMatchObject({ success: false, data: { code: 'font_not_found' } });
    }
  });

  it('every face has its own name, and the route is in the OpenAPI document', async () => {
    const names = allFaces().map(webFontFileName);
    expect(new Set(names).size).toBe(names.length);
    // The 28 npm faces, then the font directories' (Debian's Noto, where installed).
    expect(names).toHaveLength(28 + extraFaces().length);
    const doc = (await (await fetch(`${f.inst.url}/openapi.json`)).json()) as any;
    expect(doc.paths['/fonts/{file}'].get.parameters[0]).toMatchObject({ name: 'file', in: 'path' });
  });
});
