// The demo invoice from the API in headless Chromium on a machine whose only fonts are DejaVu
// (fontconfig told so by FONTCONFIG_FILE): with the fonts the report links from the server, every
// text stays inside its frame; with those requests failing, the browser falls back to DejaVu
// Sans, wider than Arial, and text runs out of its frame (what viewers without Arial-compatible
// fonts saw: "INVOICI", "Unit pric"). Skipped with a message without Chromium, a failure under
// REQUIRE_CHROMIUM=1.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceChromiumSkip, CHROMIUM, CHROMIUM_LAUNCH_ARGS } from '../support/chromium.js';
import { dropTestDatabase } from '../support/databases.js';
import { startSrsFixture, type SrsFixture } from './srs-fixture.js';

announceChromiumSkip('HTML report fonts in a DejaVu-only browser');

const DEJAVU_DIR = '/usr/share/fonts/truetype/dejavu';
const INVOICE = '/api/srs/1/invoice.frx.html?app_name=demo&order_id=1004';

interface Drawn {
  text: string;
  width: number;
  /** How far the text reaches past its frame's left and right edges (px; negative: inside). */
  overLeft: number;
  overRight: number;
}

// Every text node inside a text frame: its rendered extent (trailing spaces left out, as the
// engine measures) against the frame's. A script string: the tests' TypeScript has no DOM types.
const MEASURE = `(async () => {
  await document.fonts.ready;
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = (n.textContent || '').replace(/\\s+$/, '');
    const frame = n.parentElement && n.parentElement.closest('.f');
    if (!text || !frame) continue;
    const range = document.createRange();
    range.setStart(n, 0);
    range.setEnd(n, text.length);
    const r = range.getBoundingClientRect();
    const f = frame.getBoundingClientRect();
    out.push({ text, width: r.width, overLeft: f.left - r.left, overRight: r.right - f.right });
  }
  return out;
})()`;

describe.runIf(CHROMIUM !== undefined)('the invoice in a browser that has only DejaVu fonts', () => {
  let f: SrsFixture;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    expect(existsSync(DEJAVU_DIR), `${DEJAVU_DIR} (Debian: fonts-dejavu-core)`).toBe(true);
    dir = mkdtempSync(join(tmpdir(), 'pc-dejavu-only-'));
    writeFileSync(
      join(dir, 'fonts.conf'),
      '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n' +
        `<fontconfig><dir>${DEJAVU_DIR}</dir><cachedir>${join(dir, 'cache')}</cachedir></fontconfig>\n`,
    );
    f = await startSrsFixture('sqlite');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: CHROMIUM_LAUNCH_ARGS,
      env: { ...process.env, FONTCONFIG_FILE: join(dir, 'fonts.conf') } as Record<string, string>,
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function drawn(blockFonts: boolean): Promise<{ lines: Drawn[]; fontRequests: string[] }> {
    // The credential in the query, as a link would carry it: a header set for every request
    // would also go with the font requests, which no browser does on its own.
    const page = await browser.newPage();
    const fontRequests: string[] = [];
    page.on('requestfinished', (req) => {
      if (req.resourceType() === 'font') fontRequests.push(new URL(req.url()).pathname);
    });
    if (blockFonts) await page.route('**/fonts/**', (route) => route.abort());
    const res = await page.goto(`${f.inst.url}${INVOICE}&ptoken=${encodeURIComponent(f.adminJwt)}`);
    expect(res?.status()).toBe(200);
    const lines = (await page.evaluate(MEASURE)) as Drawn[];
    await page.close();
    return { lines, fontRequests };
  }

  it('with the served fonts, no text reaches past its frame', async () => {
    const { lines, fontRequests } = await drawn(false);
    expect(fontRequests.length).toBeGreaterThan(0);
    expect(lines.map((l) => l.text)).toEqual(expect.arrayContaining(['INVOICE', 'Unit price']));
    const over = lines.filter((l) => l.overLeft > 0.5 || l.overRight > 0.5);
    expect(over).toEqual([]);
  }, 60_000);

  it('without them (the font requests fail), DejaVu Sans draws wider and some text does reach past', async () => {
    const { lines } = await drawn(true);
    const over = lines.filter((l) => l.overLeft > 0.5 || l.overRight > 0.5).map((l) => l.text);
    // The words the issue saw clipped ("INVOICI", "Unit pric") among them.
    expect(over).toEqual(expect.arrayContaining(['INVOICE', 'Unit price']));
  }, 60_000);
});
