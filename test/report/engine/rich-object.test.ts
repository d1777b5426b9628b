// RichObject: RTF documents printed as styled runs. Expressions in the document's plain text are
// replaced by their values, each formatted with the Formats entry of its index, in the style of
// the run its opening bracket is in (the Mail Merge demo's merge fields); the object grows with
// its text and breaks across pages; a DataColumn supplies the RTF per row; limits hold. The two
// FastReport demos: every contact name of nwind.xml bold in its letter, in ContactName order, in
// the prepared report, the HTML and the PDF (pdftotext).

import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PreparedReport, PreparedText } from '../../../src/report/engine/prepared.js';
import { TemplateError } from '../../../src/report/errors.js';
import { loadFrx } from '../../../src/report/frx/index.js';
import type { DataBandModel, RichObjectModel } from '../../../src/report/frx/model.js';
import { renderReport } from '../../../src/report/index.js';
import { POPPLER_AVAILABLE, runTool } from '../../support/poppler.js';
import { demoFile } from '../../support/fastreport-demos.js';
import { collate, FIXED_NOW, NWIND_TEXT, nwindDataSet, nwindRows, runTemplate, texts } from './helpers.js';

const xmlAttr = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/\r?\n/g, '&#13;&#10;');

const HEAD = String.raw`{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\fnil Tahoma;}}{\colortbl ;\red255\green0\blue0;}`;

function template(rich: string, opts: { formats?: string; band?: string; extra?: string } = {}): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<Report>
  <Dictionary>
    <TableDataSource Name="Customers" ReferenceName="NorthWind.Customers" DataType="System.Int32" Enabled="true">
      <Column Name="CustomerID" DataType="System.String"/>
      <Column Name="ContactName" DataType="System.String"/>
      <Column Name="CompanyName" DataType="System.String"/>
    </TableDataSource>
    ${opts.extra ?? ''}
  </Dictionary>
  <ReportPage Name="Page1">
    <DataBand Name="Data1" Width="718.2" Height="40" CanGrow="true" DataSource="${opts.band ?? 'Customers'}">
      <RichObject Name="Rich1" Left="10" Width="400" Height="30" CanGrow="true" ${rich}>
        ${opts.formats ?? ''}
      </RichObject>
      <Sort><Sort Expression="[Customers.ContactName]"/></Sort>
    </DataBand>
  </ReportPage>
</Report>`;
}

const customers = () => nwindRows('Customers').sort((a, b) => collate(a.ContactName ?? '', b.ContactName ?? ''));
const richItems = (r: PreparedReport): PreparedText[] => r.pages.flatMap((p) => texts(p, 'Rich1'));
const runs = (t: PreparedText) => (t.html ?? []).flatMap((l) => l.runs);
const textOfItem = (t: PreparedText): string =>
  (t.html ?? []).map((l) => l.runs.map((r) => r.text).join('')).join('\n');
/** The laid-out text's height: the lines' heights. */
const linesHeight = (t: PreparedText): number => (t.html ?? []).reduce((s, l) => s + l.height, 0);

describe('RichObject in the template', () => {
  it('reads Text, DataColumn, Brackets, AllowExpressions, Padding, CanBreak and the Formats', () => {
    const xml = template(
      'Text="{\\rtf1 x}" DataColumn="Customers.ContactName" Brackets="&lt;,&gt;" AllowExpressions="false" ' +
        'Padding="1, 2, 3, 4" CanBreak="false"',
      { formats: '<Formats><GeneralFormat/><DateFormat Format="yyyy"/></Formats>' },
    );
    const { report, warnings } = loadFrx(xml);
    const band = report.pages[0]?.bands[0] as DataBandModel;
    const rich = band.objects[0] as RichObjectModel;
    expect(rich).toMatchObject({
      type: 'RichObject',
      text: '{\\rtf1 x}',
      dataColumn: 'Customers.ContactName',
      brackets: '<,>',
      allowExpressions: false,
      padding: { left: 1, top: 2, right: 3, bottom: 4 },
      canBreak: false,
      canGrow: true,
    });
    expect(rich.formats.map((f) => f.kind)).toEqual(['General', 'Date']);
    expect(warnings).toEqual([]);
  });
});

describe('RichObject expressions', () => {
  it('replaces each expression by its value in its Format (by index), keeping its run’s style', () => {
    const rtf =
      String.raw`${HEAD}\f0\fs20 Dear \b [Customers.ContactName]\b0 , on {\i [Date]} ` +
      String.raw`you owe {\cf1 [1234.5]}.\par}`;
    const formats = '<Formats><GeneralFormat/><DateFormat/><NumberFormat/></Formats>';
    const r = runTemplate(template(`Text="${xmlAttr(rtf)}"`, { formats }), {
      datasets: { NorthWind: nwindDataSet() },
    });
    const items = richItems(r.prepared);
    const expected = customers();
    expect(items.length).toBe(expected.length);
    // en-US short date ("d") of the run's now; NumberFormat: 2 decimals, group separator.
    const date = `${FIXED_NOW.getUTCMonth() + 1}/${FIXED_NOW.getUTCDate()}/${FIXED_NOW.getUTCFullYear()}`;
    items.forEach((t, k) => {
      const name = expected[k]?.ContactName ?? '';
      expect(textOfItem(t)).toBe(`Dear ${name}, on ${date} you owe 1,234.50.`);
      const byText = (s: string) => runs(t).find((x) => x.text === s);
      expect(byText(name)?.font.bold).toBe(true);
      expect(byText('Dear ')?.font.bold).toBe(false);
      expect(byText(date)?.font.italic).toBe(true);
      expect(byText('1,234.50')?.color).toBe('#ff0000');
      expect(byText(name)?.font.family).toBe('Tahoma');
    });
    expect(r.warnings).toEqual([]);
  });

  it('gives a value split over several runs the style of its opening bracket', () => {
    const rtf = String.raw`${HEAD}\f0 [Customers.\b ContactName]\b0  x\par}`;
    const r = runTemplate(template(`Text="${xmlAttr(rtf)}"`), { datasets: { NorthWind: nwindDataSet() } });
    const first = richItems(r.prepared)[0] as PreparedText;
    const name = customers()[0]?.ContactName ?? '';
    expect(textOfItem(first)).toBe(`${name} x`);
    expect(runs(first).find((x) => x.text.startsWith(name))?.font.bold).toBe(false);
  });

  it('keeps brackets as text with AllowExpressions off, and uses custom Brackets', () => {
    const rtf = String.raw`${HEAD}\f0 [Customers.ContactName] <Customers.CustomerID>\par}`;
    const off = runTemplate(template(`Text="${xmlAttr(rtf)}" AllowExpressions="false"`), {
      datasets: { NorthWind: nwindDataSet() },
    });
    expect(textOfItem(richItems(off.prepared)[0] as PreparedText)).toBe(
      '[Customers.ContactName] <Customers.CustomerID>',
    );
    const angle = runTemplate(template(`Text="${xmlAttr(rtf)}" Brackets="&lt;,&gt;"`), {
      datasets: { NorthWind: nwindDataSet() },
    });
    const c = customers()[0];
    expect(textOfItem(richItems(angle.prepared)[0] as PreparedText)).toBe(`[Customers.ContactName] ${c?.CustomerID}`);
  });
});

describe('RichObject from a DataColumn, size and pages', () => {
  const docs = [
    { Name: 'short', Body: String.raw`{\rtf1{\fonttbl{\f0 Arial;}}\f0\fs20 One line for [Docs.Name].\par}` },
    {
      Name: 'long',
      Body: `{\\rtf1{\\fonttbl{\\f0 Arial;}}\\f0\\fs20 ${'Many words that wrap. '.repeat(40)}\\par second\\par}`,
    },
  ];
  const extra = `<TableDataSource Name="Docs" ReferenceName="Docs"><Column Name="Name" DataType="System.String"/>
      <Column Name="Body" DataType="System.String"/></TableDataSource>`;

  it('reads each row’s RTF from the column; the object grows to its laid-out text + padding', () => {
    const r = runTemplate(template('DataColumn="Docs.Body" Padding="5, 7, 5, 3"', { band: 'Docs', extra }), {
      tables: { Docs: docs },
    });
    const [a, b] = richItems(r.prepared);
    if (!a || !b) throw new Error('two items expected');
    expect(textOfItem(a)).toBe('One line for short.');
    expect(textOfItem(b).startsWith('Many words that wrap.')).toBe(true);
    expect(textOfItem(b).endsWith('\nsecond')).toBe(true);
    // CanGrow: height = text + Padding.Top + Padding.Bottom; the short one keeps its 30 px.
    expect(a.height).toBe(30);
    expect(b.height).toBeCloseTo(linesHeight(b) + 10, 6);
    expect(b.height).toBeGreaterThan(30);
    expect((b.html ?? []).length).toBeGreaterThan(5);
    // The frame is the box minus padding: lines fit in 400 - 10 px.
    for (const l of b.html ?? []) expect(l.x + l.width).toBeLessThanOrEqual(390 + 1e-6);
  });

  it('breaks a long document across pages between lines, nothing lost', () => {
    const paragraphs = Array.from({ length: 150 }, (_, k) => `Paragraph ${k + 1}`);
    const body = `{\\rtf1{\\fonttbl{\\f0 Arial;}}\\f0\\fs20 ${paragraphs.join('\\par ')}\\par}`;
    const r = runTemplate(template('DataColumn="Docs.Body"', { band: 'Docs', extra }), {
      tables: { Docs: [{ Name: 'x', Body: body }] },
    });
    const parts = richItems(r.prepared);
    expect(r.prepared.pages.length).toBeGreaterThan(1);
    expect(parts.length).toBe(r.prepared.pages.length);
    expect(parts.map(textOfItem).join('\n')).toBe(paragraphs.join('\n'));
    for (const p of parts) expect(p.y + p.height).toBeLessThanOrEqual(r.prepared.pages[0]?.heightPx ?? 2000);
  });

  it('refuses a document nested 10^5 groups deep with a TemplateError naming the object', () => {
    const deep = `{\\rtf1 ${'{'.repeat(100_000)}x${'}'.repeat(100_000)}}`;
    const run = () =>
      runTemplate(template('DataColumn="Docs.Body"', { band: 'Docs', extra }), {
        tables: { Docs: [{ Name: 'x', Body: deep }] },
      });
    expect(run).toThrow(TemplateError);
    expect(run).toThrow(/Rich1\.DataColumn/);
  });
});

/** A report of one title band holding Rich1 with this RTF. */
const titleReport = (rtf: string, attrs = '') => `<?xml version="1.0" encoding="utf-8"?>
<Report><ReportPage Name="Page1"><ReportTitleBand Name="T" Width="718.2" Height="40" CanGrow="true">
  <RichObject Name="Rich1" Left="10" Top="5" Width="400" Height="30" CanGrow="true" Padding="4, 6, 4, 6" ${attrs}
    Text="${xmlAttr(rtf)}"/>
</ReportTitleBand></ReportPage></Report>`;

describe('RichObject tables, highlight and what it cannot show', () => {
  it('draws the cells’ borders as lines around each row’s lines, each edge once', () => {
    const cell = String.raw`\clbrdrt\brdrs\clbrdrl\brdrs\clbrdrb\brdrs\clbrdrr\brdrs`;
    const row = String.raw`\trowd\trgaph0${cell}\cellx1500${cell}\cellx3000`;
    const rows = String.raw`${row}\intbl a\cell b\cell\row${row}\intbl c\cell d\line e\cell\row`;
    const rtf = String.raw`{\rtf1\fs20 ${rows}\pard after\par}`;
    const r = runTemplate(titleReport(rtf));
    const page = r.prepared.pages[0];
    const t = texts(page as NonNullable<typeof page>, 'Rich1')[0] as PreparedText;
    const lines = (page?.items ?? []).filter((i) => i.kind === 'line' && i.name === 'Rich1.CellBorder');
    // Two rows of two cells: 3 vertical edges per row, 3 horizontal rules, each shared edge once.
    expect(lines.length).toBe(2 * 3 + 2 * 2 + 2);
    const html = t.html ?? [];
    const top = t.y + t.frame.y;
    const rowBottom = top + (html[0]?.height ?? 0);
    const tableBottom = rowBottom + (html[1]?.height ?? 0) + (html[2]?.height ?? 0);
    const ys = new Set(lines.flatMap((l) => (l.kind === 'line' && l.y1 === l.y2 ? [l.y1.toFixed(3)] : [])));
    expect([...ys].sort()).toEqual([top, rowBottom, tableBottom].map((y) => y.toFixed(3)).sort());
    const xs = new Set(
      lines.flatMap((l) => (l.kind === 'line' && l.x1 === l.x2 ? [(l.x1 - t.x - t.frame.x).toFixed(3)] : [])),
    );
    expect([...xs].sort()).toEqual(['0.000', '100.000', '200.000']);
  });

  it('shows highlighted text with its background in HTML', () => {
    const rtf = String.raw`{\rtf1{\colortbl ;\red255\green255\blue0;}\fs20 plain {\highlight1 marked} plain\par}`;
    const html = String(renderReport({ template: Buffer.from(titleReport(rtf)), format: 'html' }).output);
    expect(html).toMatch(/background-color:#ffff00[^>]*>marked</);
  });

  it('warns that the RTF’s pictures are not shown, and shows the rest', () => {
    const rtf = String.raw`{\rtf1\fs20 before {\*\shppict{\pict\pngblip 89504e47}}after\par}`;
    const r = runTemplate(titleReport(rtf));
    expect(r.warnings).toEqual(["Rich1: the RTF text's pictures are not shown"]);
    const page = r.prepared.pages[0];
    expect(textOfItem(texts(page as NonNullable<typeof page>, 'Rich1')[0] as PreparedText)).toBe('before after');
  });
});

const DEMOS = ['Reports/Mail Merge.frx', 'Reports/RichText.frx'];

describe('the RichText and Mail Merge demos', () => {
  for (const [path, designHeight, padding] of [
    [DEMOS[0], 113.4, 100],
    [DEMOS[1], 37.8, 0],
  ] as const) {
    it(`${path}: every contact name bold in its letter, in ContactName order, the letters grown`, () => {
      const r = runTemplate(demoFile(path as string), { datasets: { NorthWind: nwindDataSet() } });
      expect(r.warnings).toEqual([]);
      const items = richItems(r.prepared);
      const expected = customers();
      expect(items.length).toBe(expected.length);
      items.forEach((t, k) => {
        const name = expected[k]?.ContactName ?? '';
        const bold = runs(t).filter((x) => x.font.bold);
        expect(bold.map((x) => x.text)).toEqual([name]);
        expect(runs(t).find((x) => x.text === 'www.fast-report.com')).toMatchObject({
          color: '#0000ff',
          font: { underline: true },
        });
        expect(t.height).toBeGreaterThan(designHeight);
        expect(t.height).toBeCloseTo(linesHeight(t) + padding, 6);
      });
      // "Dear …!" is centred in the frame; the letter's body is justified.
      const first = items[0] as PreparedText;
      const dear = first.html?.[0];
      expect(Math.abs((dear?.x ?? 0) * 2 + (dear?.width ?? 0) - first.frame.width)).toBeLessThan(1e-6);
      expect((first.html ?? []).some((l) => (l.wordSpacing ?? 0) > 0)).toBe(true);
    });
  }

  it('Mail Merge: the HTML carries the styled runs; pdftotext finds every merged name', () => {
    const opts = { template: demoFile(DEMOS[0] as string), data: { datasetXml: NWIND_TEXT } };
    const html = String(renderReport({ ...opts, format: 'html' }).output);
    const names = customers().map((c) => c.ContactName ?? '');
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/'/g, '&#39;');
    for (const name of names) expect(html).toMatch(new RegExp(`font-weight:700[^>]*>${escapeRe(esc(name))}</span>`));
    expect(html).toMatch(/text-decoration:underline;color:#0000ff">www\.fast-report\.com</);
    if (!POPPLER_AVAILABLE) return;
    const file = join(tmpdir(), `rich-mail-merge-${process.pid}.pdf`);
    writeFileSync(file, renderReport({ ...opts, format: 'pdf' }).output as Buffer);
    const text = runTool('pdftotext', ['-raw', file, '-']).stdout.toString('utf8');
    let from = 0;
    for (const name of names) {
      const at = text.indexOf(`Dear ${name}!`, from);
      expect(at, name).toBeGreaterThanOrEqual(0);
      from = at;
    }
  });
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
