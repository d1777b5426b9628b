// No silent truncation. A report over Settings:RenderMaxPages is a 422
// `render_too_large` naming the limit (it used to answer 200 with the first 1,000 pages);
// `_max_pages=N` asks for the first N pages instead, and the answer says it was cut
// (X-Report-Truncated: pages=N); under the default limit (10,000 pages) a 100,000-row list
// renders whole.
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { htmlText, startSrsFixture, type SrsFixture } from './srs-fixture.js';

/** One row per page: each row is taller than half a page. */
const PAGE_PER_ROW_FRX = `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp" ReportInfo.Name="Pages">
  <ReportPage Name="Page1">
    <DataBand Name="Rows" Width="718.2" Height="600" DataSource="rows">
      <TextObject Name="T" Width="300" Height="18.9" Text="[JSON.item.rows.item.t]"/>
    </DataBand>
  </ReportPage>
</Report>`;

/** A plain list: a page header, one line per row, "Page N of M" in the footer (two passes). */
const LIST_FRX =
  `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp" ReportInfo.Name="List">
  <ReportPage Name="Page1">
    <PageHeaderBand Name="Header" Width="718.2" Height="28.35"><TextObject Name="H" Width="300" ` +
  `Height="28.35" Text="Rows"/></PageHeaderBand>
    <DataBand Name="Rows" Width="718.2" Height="18.9" DataSource="rows">
      <TextObject Name="T" Width="300" Height="18.9" Text="[JSON.item.rows.item.t]"/>
    </DataBand>
    <PageFooterBand Name="Footer" Width="718.2" Height="18.9"><TextObject Name="P" Width="300" ` +
  `Height="18.9" Text="Page [Page#] of [TotalPages#]"/></PageFooterBand>
  </ReportPage>
</Report>`;

/** `count` rows "row 1" … "row <count>". */
const ROWS_SRS =
  `<srs label="Rows"><def>
  <itm model="param" name="count" type="int">3</itm>
  <itm model="command" name="rows">WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i ` +
  `&lt; @count) SELECT i, 'row ' || i AS t FROM c</itm>
</def></srs>`;

function addRowsReports(f: SrsFixture): void {
  const srs = join(f.appsDir, 'demo', 'srs', '96-rows.xml');
  writeFileSync(srs, ROWS_SRS);
  // Far ahead, so the definition store never sees it as unchanged from an earlier file.
  const t = Math.floor(Date.now() / 1000) + 1000;
  utimesSync(srs, t, t);
  writeFileSync(join(f.appsDir, 'demo', 'templates', 'pages.frx'), PAGE_PER_ROW_FRX);
  writeFileSync(join(f.appsDir, 'demo', 'templates', 'list.frx'), LIST_FRX);
}

const TOO_LARGE =
  'The report has more than 3 pages (Settings:RenderMaxPages) and was not rendered; narrow its params, or ' +
  'ask for the first pages with _max_pages=<pages>';

describe.each(testDatabaseKinds())('SRS page limit (Settings:RenderMaxPages 3) on %s', (kind) => {
  let f: SrsFixture;
  const get = (query: string, format = 'html') =>
    f.as(f.adminJwt, `/api/srs/96/pages.frx.${format}?app_name=demo&${query}`);

  beforeAll(async () => {
    f = await startSrsFixture(kind, { Settings__RenderMaxPages: '3' });
    addRowsReports(f);
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  it('renders a report of exactly the limit whole, with no truncation header', async () => {
    const r = await get('count=3');
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(htmlText(r.text).split('\n')).toEqual(['row 1', 'row 2', 'row 3']);
    expect(r.headers.get('x-report-truncated')).toBeNull();
  });

  it('answers 422 render_too_large naming the limit and the setting over it, as HTML and as PDF', async () => {
    for (const format of ['html', 'pdf']) {
      const r = await get('count=4', format);
      expect(r.status, `${format}: ${r.text.slice(0, 300)}`).toBe(422);
      expect(r.body.data.code).toBe('render_too_large');
      expect(r.body.message).toBe(TOO_LARGE);
      expect(r.headers.get('x-report-truncated')).toBeNull();
    }
    // The worker is not lost to it: the next report renders.
    expect((await get('count=2')).status).toBe(200);
  });

  it('_max_pages=N answers the first N pages with X-Report-Truncated: pages=N', async () => {
    const r = await get('count=5&_max_pages=2');
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.headers.get('x-report-truncated')).toBe('pages=2');
    expect(htmlText(r.text).split('\n')).toEqual(['row 1', 'row 2']);
    const pdf = await f.bytes(f.adminJwt, '/api/srs/96/pages.frx.pdf?app_name=demo&count=5&_max_pages=3');
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('x-report-truncated')).toBe('pages=3');
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('_max_pages on a report that fits cuts nothing and sends no header', async () => {
    const r = await get('count=2&_max_pages=3');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-report-truncated')).toBeNull();
    expect(htmlText(r.text).split('\n')).toEqual(['row 1', 'row 2']);
  });

  it('_max_pages may come in the body of a POST, as params do', async () => {
    const r = await f.as(f.adminJwt, '/api/srs/96/pages.frx.html?app_name=demo', {
      method: 'POST',
      json: { count: 4, _max_pages: 1 },
    });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.headers.get('x-report-truncated')).toBe('pages=1');
    expect(htmlText(r.text).split('\n')).toEqual(['row 1']);
  });

  it('refuses a _max_pages that is not a whole number from 1 to the limit with a 400', async () => {
    const over = await get('count=1&_max_pages=4');
    expect(over.status).toBe(400);
    expect(over.body.data.code).toBe('invalid_param');
    expect(over.body.message).toBe(
      '_max_pages must be a whole number of pages from 1 to 3 (Settings:RenderMaxPages) (got "4")',
    );
    for (const bad of ['0', 'two', '1.5', '-1']) {
      const r = await get(`count=1&_max_pages=${bad}`);
      expect(r.status, `${bad}: ${r.text.slice(0, 300)}`).toBe(400);
    }
    const body = await f.as(f.adminJwt, '/api/srs/96/pages.frx.html?app_name=demo', {
      method: 'POST',
      json: { _max_pages: 'all' },
    });
    expect(body.status).toBe(400);
    expect(body.body.message).toContain('_max_pages must be a whole number of pages from 1 to 3');
  });

  it('documents _max_pages and the X-Report-Truncated header on the render routes (OpenAPI)', async () => {
    const doc = (await f.as(null, '/openapi.json')).body;
    for (const format of ['html', 'pdf']) {
      const path = doc.paths[`/api/srs/{id}/{templatename}.frx.${format}`];
      for (const method of ['get', 'post']) {
        const op = path[method];
        expect(
          op.parameters.find((p: { in: string; name: string }) => p.in === 'query' && p.name === '_max_pages'),
          `${method} .frx.${format}`,
        ).toMatchObject({ schema: { type: 'integer', minimum: 1 } });
        expect(op.responses['200'].headers?.['X-Report-Truncated'], `${method} .frx.${format}`).toBeDefined();
      }
    }
  });
});

// The page limit is the render's, the same on both databases: the default is checked once.
describe('SRS page limit by default (sqlite)', () => {
  let f: SrsFixture;

  beforeAll(async () => {
    f = await startSrsFixture('sqlite');
    addRowsReports(f);
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  /** The HTML list's page count ("Page 1 of N"), once rendered. */
  let htmlPages: number | undefined;

  it('renders a 100,000-row list (about 1,900 pages) whole ' +
    'under the default limits: its last row is there', async () => {
    const started = performance.now();
    const r = await f.as(f.adminJwt, '/api/srs/96/list.frx.html?app_name=demo&count=100000');
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.headers.get('x-report-truncated')).toBeNull();
    // The old limit stopped at 1,000 pages (row 50,998 of this list); the last row and the last
    // page are there now.
    expect(r.text).toContain('>row 100000<');
    const pages = Number(/Page 1 of (\d+)</.exec(r.text)?.[1]);
    expect(pages).toBeGreaterThan(1_000);
    expect(r.text).toContain(`>Page ${pages} of ${pages}<`);
    htmlPages = pages;
    console.log(`100,000-row list: ${pages} pages, ${(r.text.length / 1e6).toFixed(0)} MB of HTML in ${seconds} s`);
  }, 120_000);

  // The render worker writes a PDF's pages as the engine finishes them, so the list
  // fits the worker's default heap (Settings:RenderMemoryMb) with room to spare.
  it('renders the 100,000-row list to PDF under the default limits: every page, a whole PDF', async () => {
    const started = performance.now();
    const r = await f.bytes(f.adminJwt, '/api/srs/96/list.frx.pdf?app_name=demo&count=100000');
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    expect(r.status, r.body.subarray(0, 300).toString()).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    expect(r.headers.get('x-report-truncated')).toBeNull();
    const pdf = r.body.toString('latin1');
    expect(pdf.startsWith('%PDF-')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    // The page objects and the page tree's count agree, and match the HTML of the same list.
    const pageObjects = pdf.match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;
    expect(Number(/\/Type \/Pages\s+\/Count (\d+)/.exec(pdf)?.[1])).toBe(pageObjects);
    if (htmlPages === undefined) {
      const html = await f.as(f.adminJwt, '/api/srs/96/list.frx.html?app_name=demo&count=100000');
      htmlPages = Number(/Page 1 of (\d+)</.exec(html.text)?.[1]);
    }
    expect(pageObjects).toBe(htmlPages);
    console.log(
      `100,000-row list: ${pageObjects} pages, ${(r.body.length / 1e6).toFixed(1)} MB of PDF in ${seconds} s`,
    );
  }, 120_000);
});
