// Inherited reports: a template <inherited BaseReport="…"> is its base report with the
// child's changes applied (frx/inherit.ts), the base read through the caller's reader (the
// template's folder); the worker's template cache loads the template again when a base changes.
// FastReport's own Inherited Report demo prints its base's page header and
// footer with the child's changes and its customers list.

import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allObjects, loadFrx } from '../../../src/report/frx/index.js';
import type { TextObjectModel } from '../../../src/report/frx/model.js';
import { TemplateCache } from '../../../src/srs/render-pool/template-cache.js';
import { demoFile } from '../../support/fastreport-demos.js';
import { nwindDataSet, nwindRows, runLoaded, texts } from '../engine/helpers.js';

const BASE = `<?xml version="1.0" encoding="utf-8"?>
<Report ReportInfo.Name="Base" ReportInfo.Author="Ann">
  <ScriptText>public class ReportScript { }</ScriptText>
  <Dictionary>
    <Parameter Name="Who" DataType="System.String" Expression="&quot;base&quot;"/>
    <Parameter Name="Kept" DataType="System.String" Expression="&quot;kept&quot;"/>
  </Dictionary>
  <ReportPage Name="Page1">
    <PageHeaderBand Name="Header" Width="718.2" Height="20">
      <TextObject Name="Title" Width="200" Height="20" Text="Base title"/>
      <TextObject Name="Who" Left="300" Width="200" Height="20" Text="[Who] [Kept]"/>
    </PageHeaderBand>
  </ReportPage>
</Report>`;

const CHILD = `<?xml version="1.0" encoding="utf-8"?>
<inherited BaseReport="base.frx" ReportInfo.Name="Child">
  <Dictionary>
    <Parameter Name="Who" DataType="System.String" Expression="&quot;child&quot;"/>
  </Dictionary>
  <inherited Name="Page1">
    <inherited Name="Header" Height="40">
      <inherited Name="Title" Left="10" Text="Child title"/>
      <TextObject Name="Under" ZOrder="0" Top="20" Width="200" Height="20" Text="added"/>
    </inherited>
    <inherited Name="Gone" Left="1"/>
    <ReportTitleBand Name="RT" ZOrder="-1" Width="718.2" Height="20">
      <TextObject Name="New" Width="100" Height="20" Text="new band"/>
    </ReportTitleBand>
  </inherited>
</inherited>`;

const reader =
  (files: Record<string, string>) =>
  (name: string): string | undefined =>
    files[name];

describe('inherited reports', () => {
  it('apply the child over its base: attributes, changed objects, new objects at their ZOrder, dictionary', () => {
    const { report, warnings, bases } = loadFrx(CHILD, { baseReport: reader({ 'base.frx': BASE }) });
    expect(bases).toEqual(['base.frx']);
    expect(report.reportInfo.name).toBe('Child');
    expect(report.reportInfo.author).toBe('Ann');
    const page = report.pages[0];
    if (!page) throw new Error('no page');
    const objects = allObjects(page);
    const title = objects.find((o) => o.name === 'Title') as TextObjectModel;
    expect([title.left, title.text]).toEqual([10, 'Child title']);
    const header = page.pageHeader;
    expect(header?.height).toBe(40);
    expect(header?.objects.map((o) => o.name)).toEqual(['Under', 'Title', 'Who']);
    expect(report.dictionary.parameters.map((p) => [p.name, p.expression])).toEqual([
      ['Who', '"child"'],
      ['Kept', '"kept"'],
    ]);
    expect(warnings).toEqual([expect.stringMatching(/"Gone" is not in the base report "base.frx"/)]);
  });

  it('render: the base’s objects with the child’s values, and the child’s new band', () => {
    const { report } = loadFrx(CHILD, { baseReport: reader({ 'base.frx': BASE }) });
    expect([report.pages[0]?.reportTitle?.name, report.pages[0]?.pageHeader?.name]).toEqual(['RT', 'Header']);
    const page = runLoaded(report).prepared.pages[0];
    if (!page) throw new Error('no page');
    expect(texts(page, 'Who').map((t) => t.text)).toEqual(['child kept']);
    expect(texts(page, 'Title').map((t) => t.text)).toEqual(['Child title']);
    expect(texts(page, 'New').map((t) => t.text)).toEqual(['new band']);
  });

  it('resolve a base that is itself inherited', () => {
    const middle = CHILD.replace('Child title', 'Middle');
    const top =
      '<inherited BaseReport="middle.frx"><inherited Name="Page1">' +
      '<inherited Name="Title" Top="5"/></inherited></inherited>';
    const { report, bases } = loadFrx(top, { baseReport: reader({ 'base.frx': BASE, 'middle.frx': middle }) });
    expect(bases).toEqual(['middle.frx', 'base.frx']);
    const page = report.pages[0];
    if (!page) throw new Error('no page');
    const title = allObjects(page).find((o) => o.name === 'Title') as TextObjectModel;
    expect([title.left, title.top, title.text]).toEqual([10, 5, 'Middle']);
  });

  it('refuse a missing base, a path, a cycle and a chain too deep, with a clear template error', () => {
    expect(() => loadFrx(CHILD)).toThrow(/the base report "base.frx" cannot be found/);
    expect(() => loadFrx(CHILD, { baseReport: reader({}) })).toThrow(/cannot be found/);
    for (const bad of ['../base.frx', '/etc/passwd', 'sub/base.frx', 'C:\\base.frx', '..'])
      expect(() => loadFrx(`<inherited BaseReport="${bad}"/>`, { baseReport: () => BASE })).toThrow(
        /must be a file name in the template's folder/,
      );
    const loop = '<inherited BaseReport="a.frx"/>';
    expect(() => loadFrx(loop, { baseReport: () => loop })).toThrow(/inherits from itself/);
    const chain = (name: string) => `<inherited BaseReport="${String(Number(name.split('.')[0]) + 1)}.frx"/>`;
    expect(() => loadFrx(chain('0.frx'), { baseReport: chain })).toThrow(/more than 8 base reports/);
    expect(() => loadFrx('<inherited BaseReport="x.frx"/>', { baseReport: () => '<NotAReport/>' })).toThrow(
      /not a FastReport template/,
    );
  });
});

describe('the template cache and inherited reports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'inherit-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the base from the template’s folder and loads again when the base changes', () => {
    writeFileSync(join(dir, 'base.frx'), BASE);
    writeFileSync(join(dir, 'child.frx'), CHILD);
    const cache = new TemplateCache();
    const first = cache.get(join(dir, 'child.frx'));
    expect(first.hit).toBe(false);
    const who = () => first.template.loaded().report.dictionary.parameters.find((p) => p.name === 'Kept')?.expression;
    expect(who()).toBe('"kept"');
    expect(cache.get(join(dir, 'child.frx')).hit).toBe(true);
    writeFileSync(join(dir, 'base.frx'), BASE.replace('&quot;kept&quot;', '&quot;changed&quot;'));
    utimesSync(join(dir, 'base.frx'), new Date(), new Date(Date.now() + 5000));
    const again = cache.get(join(dir, 'child.frx'));
    expect(again.hit).toBe(false);
    expect(again.template.loaded().report.dictionary.parameters.find((p) => p.name === 'Kept')?.expression).toBe(
      '"changed"',
    );
  });
});

const DEMO = 'Reports/Inherited Report.frx';
const DEMO_BASE = 'Reports/Inherited Report - base.frx';
describe('FastReport’s Inherited Report demo', () => {
  it('prints the base’s header and footer with the child’s changes, and every customer', () => {
    const { report, warnings } = loadFrx(demoFile(DEMO), {
      baseReport: (name) => (name === 'Inherited Report - base.frx' ? demoFile(DEMO_BASE) : undefined),
    });
    expect(warnings).toEqual([]);
    const r = runLoaded(report, { datasets: { NorthWind: nwindDataSet() } });
    const first = r.prepared.pages[0];
    if (!first) throw new Error('no page');
    // From the base: the header's "Northwind traders" and page number, moved and grown by the child.
    const base = texts(first, 'Text4')[0];
    expect(base?.text).toBe('Northwind traders');
    expect(base?.height).toBeCloseTo(28.35, 6);
    const footerDate = texts(first, 'Text1')[0];
    expect(footerDate?.text).toMatch(/^Printed on /);
    // Added by the child.
    expect(texts(first, 'Text26')[0]?.text).toBe('Generated by FastReport .NET');
    const companies = r.prepared.pages.flatMap((p) => texts(p, 'Text6').map((t) => t.text));
    expect(companies.length).toBe(nwindRows('Customers').length);
  });
});
