// `platform-core render` without --data, run for real: a template whose data sources read only
// supplied data exits 2 naming them and the option (an empty report with a warning per column
// helps nobody); a template with no data sources, or one carrying its data, renders as before.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, htmlTexts, runCli } from './cli.js';

let dir = '';
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'render-cli-data-'));
}, 240_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function template(name: string, dictionary: string, text: string, dataSource?: string): string {
  const path = join(dir, name);
  const band = dataSource
    ? `<DataBand Name="D" Width="718.2" Height="18.9" DataSource="${dataSource}">`
    : '<ReportTitleBand Name="D" Width="718.2" Height="18.9">';
  writeFileSync(
    path,
    `<Report><Dictionary>${dictionary}</Dictionary><ReportPage Name="P">${band}
      <TextObject Name="T" Width="300" Height="18.9" Text="${text}"/>
    </${dataSource ? 'DataBand' : 'ReportTitleBand'}></ReportPage></Report>`,
  );
  return path;
}

const USAGE_HINT = 'give them with --data <file.json|dataset.xml>';

describe('render without --data', () => {
  it('exits 2 naming the data sources bound by reference and the --data option, writing nothing', async () => {
    const path = template(
      'reference.frx',
      '<TableDataSource Name="Products" ReferenceName="NorthWind.Products" Enabled="true">' +
        '<Column Name="ProductName" DataType="System.String"/></TableDataSource>' +
        '<TableDataSource Name="Categories" ReferenceName="NorthWind.Categories" Enabled="true"/>' +
        '<TableDataSource Name="Unused" ReferenceName="NorthWind.Unused" Enabled="false"/>',
      '[Products.ProductName]',
      'Products',
    );
    const out = join(dir, 'reference.html');
    const res = await runCli(['render', path, '--out', out]);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toBe(
      `platform-core: ${path}: no data given for the data sources "Products", "Categories"; ${USAGE_HINT}\n`,
    );
    expect(res.stdout).toBe('');
    expect(() => rmSync(out)).toThrow(); // no file was created
  });

  it('exits 2 for a JSON connection without JSON of its own (an SRS template)', async () => {
    const path = template(
      'srs.frx',
      '<JsonDataSourceConnection Name="Connection"><JsonTableDataSource Name="JSON" Enabled="true"/>' +
        '</JsonDataSourceConnection>',
      '[JSON.item.city]',
      'JSON',
    );
    const res = await runCli(['render', path]);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain(`no data given for the data sources "JSON"; ${USAGE_HINT}`);
  });

  it('renders a template without data sources, and one carrying its data, with no warning', async () => {
    const plain = await runCli(['render', template('plain.frx', '', 'Hello')]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toBe('');
    expect(htmlTexts(plain.stdout)).toEqual(['Hello']);

    const json = JSON.stringify([{ city: 'Oslo' }]).replace(/"/g, '&quot;');
    const inline = template(
      'inline.frx',
      `<JsonDataSourceConnection Name="C" ConnectionString="Json=${json}"/>`,
      '[JSON.item.city]',
      'JSON',
    );
    const carried = await runCli(['render', inline]);
    expect(carried.code, carried.stderr).toBe(0);
    expect(htmlTexts(carried.stdout)).toEqual(['Oslo']);
  });

  it('renders the same template once its data is given', async () => {
    const path = template(
      'given.frx',
      '<TableDataSource Name="Products" ReferenceName="NorthWind.Products" Enabled="true">' +
        '<Column Name="ProductName" DataType="System.String"/></TableDataSource>',
      '[Products.ProductName]',
      'Products',
    );
    const data = join(dir, 'given.json');
    writeFileSync(data, JSON.stringify({ Products: [{ ProductName: 'Chai' }, { ProductName: 'Chang' }] }));
    const res = await runCli(['render', path, '--data', data]);
    expect(res.code, res.stderr).toBe(0);
    expect(htmlTexts(res.stdout)).toEqual(['Chai', 'Chang']);
  });
});
