// A template whose script loops forever ends with a template error (422
// template_error naming the handler and line) well within the render timeout, through the SRS
// endpoints, and the server keeps answering: the next request and the next render are served.
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTestDatabase } from '../support/databases.js';
import { htmlText, startSrsFixture, type SrsFixture } from './srs-fixture.js';

const script = (body: string): string => `using System;
namespace FastReport
{
  public class ReportScript
  {
    private void _StartReport(object sender, EventArgs e)
    {
      ${body}
    }
  }
}`;

const frx = (body: string): string => `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp" ReportInfo.Name="Loop" StartReportEvent="_StartReport">
  <ScriptText><![CDATA[${script(body)}]]></ScriptText>
  <ReportPage Name="Page1">
    <ReportTitleBand Name="Title" Width="718.2" Height="20">
      <TextObject Name="T" Width="300" Height="20" Text="done"/>
    </ReportTitleBand>
  </ReportPage>
</Report>`;

// The render timeout here is the service's default (the loop must end by its step budget long
// before it, not by the timeout).
describe('a report script that loops forever, through the SRS endpoints', () => {
  let f: SrsFixture;

  beforeAll(async () => {
    f = await startSrsFixture('sqlite');
    const srs = join(f.appsDir, 'demo', 'srs', '97-loop.xml');
    writeFileSync(srs, '<srs label="Loop"><def><itm model="command" name="rows">SELECT 1 AS i</itm></def></srs>');
    // Far ahead, so the definition store never sees it as unchanged from an earlier file.
    const t = Math.floor(Date.now() / 1000) + 1000;
    utimesSync(srs, t, t);
    const templates = join(f.appsDir, 'demo', 'templates');
    writeFileSync(join(templates, 'loop.frx'), frx('while (true) { }'));
    writeFileSync(
      join(templates, 'grow.frx'),
      frx('var l = new System.Collections.Generic.List<int>(); while (true) l.Add(1);'),
    );
    writeFileSync(join(templates, 'fine.frx'), frx('int n = 0; for (int i = 0; i < 1000; i++) n += i;'));
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  it.each([
    ['loop.frx', /more than \d+ steps.*_StartReport, line 8/],
    ['grow.frx', /more than \d+ collection items.*_StartReport, line 8/],
  ])('%s answers 422 template_error naming the handler and line, and the server goes on', async (name, message) => {
    const started = Date.now();
    const r = await f.as(f.adminJwt, `/api/srs/97/${name}.html?app_name=demo`);
    const took = Date.now() - started;
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.body.data.code).toBe('template_error');
    expect(r.body.message).toMatch(message);
    // Far less than the default render timeout (60 s): the step and item budgets stop it.
    expect(took).toBeLessThan(30_000);
    const ping = await f.as(f.adminJwt, '/api/core/system/ping');
    expect(ping.status).toBe(200);
    const fine = await f.as(f.adminJwt, '/api/srs/97/fine.frx.html?app_name=demo');
    expect(fine.status, fine.text.slice(0, 300)).toBe(200);
    expect(htmlText(fine.text)).toContain('done');
  });
});
