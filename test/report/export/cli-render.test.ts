// `platform-core render` run for real on every FastReport demo with nwind.xml, plus JSON data,
// templates carrying their own data, and failures.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collate, FIXTURE_DIR, NWIND_PATH, nwindRows, runFixture } from '../engine/helpers.js';
import { ensureBuilt, htmlTexts, runCli } from './cli.js';
import { CORE_DEMOS } from '../../support/fastreport-demos.js';

const FIXTURES = [...CORE_DEMOS];
let dir = '';
const outputs = new Map<string, string>();

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'render-cli-'));
  // Four at a time: each is a separate node process.
  const queue = [...FIXTURES];
  const worker = async (): Promise<void> => {
    for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
      const out = join(dir, `${f}.html`);
      const res = await runCli(['render', FIXTURE_DIR + f, '--data', NWIND_PATH, '--out', out]);
      if (res.code !== 0) throw new Error(`${f}: exit ${res.code}\n${res.stderr}`);
      outputs.set(f, readFileSync(out, 'utf8'));
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}, 240_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('render every FastReport demo with nwind.xml', () => {
  it.each(FIXTURES)('%s', (f) => {
    const html = outputs.get(f) ?? '';
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    const pages = [...html.matchAll(/data-page="(\d+)"/g)].map((m) => Number(m[1]));
    expect(pages.length).toBeGreaterThan(0);
    expect(pages).toEqual(pages.map((_, i) => i + 1));
    expect(pages.length).toBe(runFixture(f).prepared.pages.length);
    expect(html).not.toMatch(/<script/i);
  });

  it('Simple List: the employees in sort order, with their photos', () => {
    const html = outputs.get('Simple List.frx') ?? '';
    const names = nwindRows('Employees')
      .sort((a, b) => collate(a.FirstName ?? '', b.FirstName ?? '') || collate(a.LastName ?? '', b.LastName ?? ''))
      .map((e) => `${e.FirstName} ${e.LastName}`);
    const texts = htmlTexts(html);
    expect(texts.filter((t) => names.includes(t))).toEqual(names);
    expect(html.match(/src="data:image\/jpeg;base64,/g)).toHaveLength(names.length);
  });

  it('Groups: group letters and counts in the HTML', () => {
    const texts = htmlTexts(outputs.get('Groups.frx') ?? '');
    const products = nwindRows('Products').map((p) => p.ProductName ?? '');
    for (const l of [...new Set(products.map((n) => n.slice(0, 1)))]) {
      expect(texts).toContain(`Total products: ${products.filter((n) => n.startsWith(l)).length}`);
    }
  });

  it('Double Pass: "Page N of M" on every page', () => {
    const html = outputs.get('Double Pass, Total Pages.frx') ?? '';
    const total = [...html.matchAll(/data-page="/g)].length;
    const marks = htmlTexts(html).filter((t) => /^Page \d+ of \d+$/.test(t));
    expect(marks).toEqual(Array.from({ length: total }, (_, i) => `Page ${i + 1} of ${total}`));
  });

  it('links only to http/https targets, opening in a new tab where asked', () => {
    const html = outputs.get('Simple List.frx') ?? '';
    expect(html).toContain('href="http://fast.report/aa29e" target="_blank"');
    expect(html).toContain('href="https://www.fast-report.com/products/fast-report-net"');
  });
});

describe('render command options and failures', () => {
  it('writes to stdout with --out - and reports warnings on stderr', async () => {
    const res = await runCli(['render', `${FIXTURE_DIR}Purchase Order.frx`, '--data', NWIND_PATH, '--out', '-']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('data-page="1"');
    expect(res.stdout).toContain('PURCHASE ORDER');
    const warned = join(dir, 'warned.frx');
    writeFileSync(
      warned,
      '<Report><ReportPage Name="P"><ReportTitleBand Name="T" Width="700" Height="20">' +
        '<TextObject Name="A" Width="100" Height="20" Style="NoSuchStyle" Text="a"/>' +
        '</ReportTitleBand></ReportPage></Report>',
    );
    const w = await runCli(['render', warned, '--out', '-']);
    expect(w.code).toBe(0);
    expect(w.stderr).toMatch(/warning: .*NoSuchStyle/);
  });

  it('renders JSON data for a template with a JSON connection', async () => {
    const template = join(dir, 'json.frx');
    writeFileSync(
      template,
      `<Report><Dictionary><JsonDataSourceConnection Name="C"><JsonTableDataSource Name="JSON" ` +
        `Enabled="true"/></JsonDataSourceConnection></Dictionary>
      <ReportPage Name="P"><DataBand Name="D" Width="718.2" Height="18.9" DataSource="rows">
        <TextObject Name="T" Width="300" Height="18.9" Text="[JSON.item.rows.item.name] ` +
        `&lt;[JSON.item.rows.item.n]&gt;"/>
      </DataBand></ReportPage></Report>`,
    );
    const data = join(dir, 'data.json');
    writeFileSync(
      data,
      JSON.stringify({
        rows: [
          { name: 'one', n: 1 },
          { name: '<b>two</b>', n: 2 },
        ],
      }),
    );
    const res = await runCli(['render', template, '--data', data]);
    expect(res.code).toBe(0);
    expect(htmlTexts(res.stdout)).toEqual(['one <1>', '<b>two</b> <2>']);
    expect(res.stdout).not.toContain('<b>two');
  });

  it('renders a template that carries its data (Json= in the connection string) without --data', async () => {
    const template = join(dir, 'inline.frx');
    const json = JSON.stringify([{ city: 'Oslo' }, { city: 'Lima' }]).replace(/"/g, '&quot;');
    writeFileSync(
      template,
      `<Report><Dictionary><JsonDataSourceConnection Name="C" ConnectionString="Json=${json}"/></Dictionary>
      <ReportPage Name="P"><DataBand Name="D" Width="718.2" Height="18.9" DataSource="JSON">
        <TextObject Name="T" Width="300" Height="18.9" Text="[JSON.item.city]"/>
      </DataBand></ReportPage></Report>`,
    );
    const res = await runCli(['render', template]);
    expect(res.code).toBe(0);
    expect(htmlTexts(res.stdout)).toEqual(['Oslo', 'Lima']);
  });

  it('--format frx embeds the data, and the merged template renders the same without --data', async () => {
    const template = join(dir, 'merge.frx');
    writeFileSync(
      template,
      `<Report><Dictionary><JsonDataSourceConnection Name="C"><JsonTableDataSource Name="JSON" ` +
        `Enabled="true"/></JsonDataSourceConnection></Dictionary>
      <ReportPage Name="P"><DataBand Name="D" Width="718.2" Height="18.9" DataSource="rows">
        <TextObject Name="T" Width="300" Height="18.9" Text="[JSON.item.rows.item.name]: ` +
        `[IIf([JSON.item.rows.item.n] == null, &quot;none&quot;, [JSON.item.rows.item.n])]"/>
      </DataBand></ReportPage></Report>`,
    );
    const data = join(dir, 'merge.json');
    writeFileSync(
      data,
      JSON.stringify({
        rows: [
          { name: 'Ärger "quoted"', n: 1 },
          { name: 'null n', n: null },
        ],
      }),
    );
    const merged = join(dir, 'merged.frx');
    expect((await runCli(['render', template, '--data', data, '--format', 'frx', '--out', merged])).code).toBe(0);
    expect(readFileSync(merged, 'utf8')).toContain('Json=');
    const direct = await runCli(['render', template, '--data', data]);
    const fromMerged = await runCli(['render', merged]);
    expect(fromMerged.code).toBe(0);
    expect(htmlTexts(fromMerged.stdout)).toEqual(['Ärger "quoted": 1', 'null n: none']);
    expect(fromMerged.stdout).toBe(direct.stdout);
    const noData = await runCli(['render', template, '--format', 'frx']);
    expect(noData.code).toBe(2);
    expect(noData.stderr).toContain('--data');
  });

  it('reads named arrays for TableDataSources from JSON', async () => {
    const template = join(dir, 'tables.frx');
    writeFileSync(
      template,
      `<Report><Dictionary><TableDataSource Name="People" Enabled="true"><Column Name="Name" ` +
        `DataType="System.String"/></TableDataSource></Dictionary>
      <ReportPage Name="P"><DataBand Name="D" Width="718.2" Height="18.9" DataSource="People">
        <TextObject Name="T" Width="300" Height="18.9" Text="[Row#]. [People.Name]"/>
        <Sort><Sort Expression="[People.Name]"/></Sort>
      </DataBand></ReportPage></Report>`,
    );
    const data = join(dir, 'people.json');
    writeFileSync(data, JSON.stringify({ People: [{ Name: 'Zoe' }, { Name: 'adam' }, { Name: 'Bea' }] }));
    const res = await runCli(['render', template, '--data', data]);
    expect(res.code).toBe(0);
    expect(htmlTexts(res.stdout)).toEqual(['1. adam', '2. Bea', '3. Zoe']);
  });

  it('exits 2 naming the object and the expression on a template error', async () => {
    const template = join(dir, 'bad.frx');
    writeFileSync(
      template,
      `<Report><ReportPage Name="P"><ReportTitleBand Name="T" Width="718.2" Height="18.9">
      <TextObject Name="Broken" Width="300" Height="18.9" Text="[Nope.Column + ` +
        `]"/></ReportTitleBand></ReportPage></Report>`,
    );
    const res = await runCli(['render', template]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Broken.Text');
    expect(res.stderr).toContain('Nope.Column');
    expect(res.stdout).toBe('');
  });

  it('exits 2 for a missing template, malformed XML and an unknown format', async () => {
    const missing = await runCli(['render', join(dir, 'nope.frx')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read template .*no such file/);
    const broken = join(dir, 'broken.frx');
    writeFileSync(broken, '<Report><ReportPage>');
    const malformed = await runCli(['render', broken]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('broken.frx');
    const format = await runCli(['render', broken, '--format', 'docx']);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('--format docx');
  });
});
