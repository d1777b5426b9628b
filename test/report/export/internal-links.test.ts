// Links inside the document and its outline (navigation): a hyperlink of kind Bookmark goes to the page
// of the object that sets that bookmark, one of kind PageNumber to that page; both exports make
// them working links. Checked on FastReport's Complex (Hyperlinks, Outline, TOC) demo, read back
// with a PDF reader of its own (Mozilla's pdf.js) and a browser (headless Chromium), with no use
// of the engine's model:
// - the contents' page-number links (Text18) go to the page their number names;
// - a category name's link (Text14) goes to a page on which that name is printed below the
//   contents (the category's heading);
// - "back to top" (PageNumber 1) goes to page 1;
// - the outline (the PDF's bookmarks panel, the HTML's table of contents) lists the contents page
//   and each category with its products, each entry at a page that shows its text.
// A link to a bookmark no object sets, or to a page the document lacks, is not exported.

import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../../src/report/index.js';
import { announceChromiumSkip, CHROMIUM, CHROMIUM_LAUNCH_ARGS } from '../../support/chromium.js';
import { demoFile } from '../../support/fastreport-demos.js';
import { NWIND_TEXT } from '../engine/helpers.js';

announceChromiumSkip('internal link browser test');

const DEMO = 'Reports/Complex (Hyperlinks, Outline, TOC).frx';
const CATEGORIES = [
  'Beverages',
  'Condiments',
  'Confections',
  'Dairy Products',
  'Grains/Cereals',
  'Meat/Poultry',
  'Produce',
  'Seafood',
];

interface Link {
  /** The page the link is on and the one it goes to (1-based). */
  from: number;
  to: number;
  /** The text inside the link's rectangle. */
  text: string;
}

interface OutlineItem {
  title: string;
  to: number;
  items: OutlineItem[];
}

/** Every link of a PDF with a destination in the document, and its outline, read with pdf.js. */
async function pdfLinks(
  pdf: Buffer,
): Promise<{ links: Link[]; pageTexts: string[][]; urls: number; outline: OutlineItem[] }> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false }).promise;
  const links: Link[] = [];
  const pageTexts: string[][] = [];
  let urls = 0;
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    const items = content.items.flatMap((i) => ('str' in i && i.str.trim() !== '' ? [i] : []));
    pageTexts.push(items.map((i) => i.str));
    for (const a of await page.getAnnotations()) {
      if (a.subtype !== 'Link') continue;
      if (a.url) {
        urls++;
        continue;
      }
      const dest = typeof a.dest === 'string' ? await doc.getDestination(a.dest) : a.dest;
      if (!Array.isArray(dest)) throw new Error(`page ${n}: a link without a destination`);
      const to = (await doc.getPageIndex(dest[0])) + 1;
      const [x1, y1, x2, y2] = a.rect as number[];
      const inside = items.filter((i) => {
        const [x, y] = [i.transform[4] as number, i.transform[5] as number];
        return x >= (x1 as number) - 1 && x <= (x2 as number) && y >= (y1 as number) - 1 && y <= (y2 as number);
      });
      links.push({ from: n, to, text: inside.map((i) => i.str).join(' ') });
    }
  }
  type PdfOutline = { title: string; dest: unknown; items: PdfOutline[] };
  const read = async (items: PdfOutline[]): Promise<OutlineItem[]> => {
    const out: OutlineItem[] = [];
    for (const i of items) {
      const dest = typeof i.dest === 'string' ? await doc.getDestination(i.dest) : i.dest;
      if (!Array.isArray(dest)) throw new Error(`outline "${i.title}" without a destination`);
      out.push({ title: i.title, to: (await doc.getPageIndex(dest[0])) + 1, items: await read(i.items) });
    }
    return out;
  };
  const outline = await read(((await doc.getOutline()) ?? []) as PdfOutline[]);
  await doc.destroy();
  return { links, pageTexts, urls, outline };
}

function checkLinks(links: Link[], pageHas: (page: number, text: string) => boolean): void {
  const toc = links.filter((l) => l.from === links[0]?.from && CATEGORIES.includes(l.text));
  expect(toc.map((l) => l.text)).toEqual(CATEGORIES);
  for (const l of toc) expect(pageHas(l.to, l.text), `${l.text} → page ${l.to}`).toBe(true);
  const numbers = links.filter((l) => /^\d+$/.test(l.text));
  expect(numbers.length).toBe(CATEGORIES.length);
  for (const l of numbers) expect(l.to).toBe(Number(l.text));
  // The name and the number of one contents line go to the same page.
  expect(numbers.map((l) => l.to)).toEqual(toc.map((l) => l.to));
  const back = links.filter((l) => l.text === 'back to top');
  expect(back.length).toBe(CATEGORIES.length);
  for (const l of back) expect(l.to).toBe(1);
}

describe('internal links of the Complex (Hyperlinks, Outline, TOC) demo', () => {
  const run = (format: 'pdf' | 'html') =>
    renderReport({ template: demoFile(DEMO), data: { datasetXml: NWIND_TEXT }, format });

  it('PDF: every contents line and "back to top" is a link to the right page', async () => {
    const { links, pageTexts, urls } = await pdfLinks(run('pdf').output as Buffer);
    // The category's heading: its name on the page, past the contents page.
    checkLinks(links, (page, text) => page > 2 && (pageTexts[page - 1] ?? []).includes(text));
    expect(urls).toBeGreaterThan(0);
  }, 60_000);

  it('PDF: the outline lists the contents and each category with its products, each at its page', async () => {
    const { outline, pageTexts } = await pdfLinks(run('pdf').output as Buffer);
    const has = (page: number, text: string): boolean => (pageTexts[page - 1] ?? []).includes(text);
    expect(outline.map((o) => o.title)).toEqual(['Table of Contents', ...CATEGORIES]);
    expect(outline[0]?.to).toBe(2);
    expect(has(2, 'Table of contents')).toBe(true);
    let products = 0;
    for (const c of outline.slice(1)) {
      expect(has(c.to, c.title), `${c.title} → page ${c.to}`).toBe(true);
      expect(c.items.length).toBeGreaterThan(0);
      for (const p of c.items) {
        expect(has(p.to, p.title), `${p.title} → page ${p.to}`).toBe(true);
        products++;
      }
    }
    expect(products).toBe(77);
  }, 60_000);

  it.runIf(CHROMIUM !== undefined)(
    'HTML: every contents line and "back to top" jumps to the right page anchor in Chromium',
    async () => {
      const html = run('html').output as string;
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_LAUNCH_ARGS });
      try {
        const page = await browser.newPage();
        await page.setContent(html);
        // Each internal link: its page, its text, and the page of the element its href names.
        const found = (await page.evaluate(`(() => [...document.querySelectorAll('.p a[href^="#"]')].map((a) => {
          const target = document.getElementById(a.getAttribute('href').slice(1));
          return {
            from: Number(a.closest('.p').dataset.page),
            to: target ? Number(target.closest('.p').dataset.page) : 0,
            text: a.textContent.trim(),
          };
        }))()`)) as Link[];
        const pageTexts = (await page.evaluate(
          `[...document.querySelectorAll('.p')].map((p) => p.innerText)`,
        )) as string[];
        checkLinks(found, (n, text) => n > 2 && (pageTexts[n - 1] ?? '').split('\n').includes(text));
        // The table of contents before the pages: the outline, each entry a link to its page.
        const nav = (await page.evaluate(`[...document.querySelectorAll('nav.toc a')].map((a) => {
          const target = document.getElementById(a.getAttribute('href').slice(1));
          return { text: a.textContent, to: target ? Number(target.closest('.p').dataset.page) : 0 };
        })`)) as { text: string; to: number }[];
        expect(nav.length).toBe(1 + CATEGORIES.length + 77);
        for (const n of nav.filter((x) => CATEGORIES.includes(x.text)))
          expect((pageTexts[n.to - 1] ?? '').split('\n'), n.text).toContain(n.text);
        // Following a link scrolls its target page into view.
        const seafood = found.find((l) => l.text === 'Seafood');
        await page.evaluate(
          `[...document.querySelectorAll('.p a[href^="#"]')].find((a) => a.textContent.trim() === 'Seafood').click()`,
        );
        const top = (await page.evaluate(
          `document.querySelector('.p[data-page="${seafood?.to}"]').getBoundingClientRect().top`,
        )) as number;
        expect(Math.abs(top)).toBeLessThan(page.viewportSize()?.height ?? 720);
        expect(await page.evaluate('location.hash')).toMatch(/^#b\d+$/);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});

describe('internal links to nothing', () => {
  const template = (kind: string, target: string) =>
    '<?xml version="1.0" encoding="utf-8"?><Report><ReportPage Name="P">' +
    '<ReportTitleBand Name="T" Width="718.2" Height="40">' +
    `<TextObject Name="L" Width="200" Height="20" Hyperlink.Kind="${kind}" Hyperlink.Value="${target}" Text="go"/>` +
    '<TextObject Name="M" Top="20" Width="200" Height="20" Bookmark="&quot;here&quot;" Text="here"/>' +
    '</ReportTitleBand></ReportPage></Report>';

  it('are not exported: a bookmark no object sets, a page the document lacks, a preview-only kind', () => {
    for (const [kind, target] of [
      ['Bookmark', 'nowhere'],
      ['PageNumber', '2'],
      ['PageNumber', 'x'],
    ] as const) {
      const html = renderReport({ template: template(kind, target), format: 'html' }).output as string;
      expect(html).not.toContain('href="#');
    }
    // The kinds only FastReport's interactive preview follows: plain text, with a warning.
    for (const kind of ['DetailReport', 'DetailPage', 'Custom']) {
      const r = renderReport({ template: template(kind, 'Page2'), format: 'html' });
      expect(r.output as string).not.toMatch(/<a /);
      expect(r.warnings).toContain(
        `L: its ${kind} hyperlink works only in an interactive preview; it prints as plain text`,
      );
    }
    const ok = renderReport({ template: template('Bookmark', 'here'), format: 'html' }).output as string;
    expect(ok).toMatch(/<a class="i" href="#b1"/);
    expect(ok).toMatch(/<div id="b1" style="position:absolute;left:0;top:[\d.]+px"><\/div>/);
  });
});
