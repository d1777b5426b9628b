// Hostile templates: refused quickly with a TemplateError, never a crash, nothing executed.

import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { TemplateError } from '../../../src/report/errors.js';
import { loadFrx } from '../../../src/report/frx/load.js';
import { fixtureBytes, frx, templateError, timed } from './helpers.js';

const FAST_MS = 5000;

function refusedQuickly(input: Buffer | string, pattern: RegExp, opts = {}): TemplateError {
  const [err, ms] = timed(() => loadFrx(input, opts));
  expect(err).toBeInstanceOf(TemplateError);
  expect((err as TemplateError).message).toMatch(pattern);
  expect(ms).toBeLessThan(FAST_MS);
  return err as TemplateError;
}

describe('entities and DTDs', () => {
  it('refuses XXE (an external entity in a DOCTYPE)', () => {
    const xml = `<?xml version="1.0"?>
<!DOCTYPE Report [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<Report ReportInfo.Description="&xxe;"><ReportPage Name="Page1"/></Report>`;
    const err = refusedQuickly(xml, /DTDs are not allowed/);
    expect(err.where).toBe('line 2');
  });
  it('refuses a DOCTYPE with an external DTD', () => {
    refusedQuickly(
      '<?xml version="1.0"?>\n<!DOCTYPE Report SYSTEM "file:///etc/passwd">\n<Report/>',
      /DTDs are not allowed/,
    );
    refusedQuickly(
      '<!DOCTYPE Report PUBLIC "-//x//y" "http://example.invalid/x.dtd"><Report/>',
      /DTDs are not allowed/,
    );
  });
  it('refuses billion laughs', () => {
    const lols = ['<!ENTITY lol "lol">'];
    for (let i = 1; i <= 9; i++) lols.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
    const xml = `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n${lols.join('\n')}\n]>\n<Report ReportInfo.Name="&lol9;"/>`;
    refusedQuickly(xml, /DTDs are not allowed/);
  });
  it('refuses entities that were never declared (no DTD)', () => {
    refusedQuickly('<Report ReportInfo.Name="&xxe;"/>', /undefined entity/);
    refusedQuickly('<Report>&lol9;</Report>', /undefined entity/);
  });
});

describe('size and shape limits', () => {
  it('refuses a 50 MB text node by size, fast (string and bytes)', () => {
    const body = 'x'.repeat(50 * 1024 * 1024);
    refusedQuickly(`<Report><ScriptText>${body}</ScriptText></Report>`, /larger than maxInputBytes \(20971520\)/);
    refusedQuickly(Buffer.from(`<Report><ReportPage Name="${body}"/></Report>`), /larger than maxInputBytes/);
  });
  it('refuses a gzip bomb at the inflation cap', () => {
    const bomb = gzipSync(
      Buffer.concat([
        Buffer.from('<Report><ScriptText>'),
        Buffer.alloc(64 * 1024 * 1024, 0x20),
        Buffer.from('</ScriptText></Report>'),
      ]),
    );
    expect(bomb.length).toBeLessThan(1024 * 1024);
    refusedQuickly(bomb, /inflates to more than maxInputBytes/);
  });
  it('refuses 10,000-deep nesting by depth, without a stack overflow', () => {
    const deep = `<Report>${'<ReportPage>'.repeat(10_000)}${'</ReportPage>'.repeat(10_000)}</Report>`;
    const err = refusedQuickly(deep, /nested deeper than maxDepth \(200\)/);
    expect(err.where).toBe('line 1');
    // Even with a raised limit the depth stays capped (later stages walk the tree recursively).
    refusedQuickly(deep, /maxDepth \(1000\)/, { maxDepth: 1_000_000 });
    // Unclosed deep nesting too.
    refusedQuickly(`<Report>${'<a>'.repeat(200_000)}`, /maxDepth/);
  });
  it('builds the model for nesting right up to the depth cap', () => {
    const n = 997; // Report + ReportPage + 997 bands + 1 text = 1000 levels
    const xml =
      `<Report><ReportPage>${'<DataBand Name="D">'.repeat(n)}<TextObject ` +
      `Name="T"/>${'</DataBand>'.repeat(n)}</ReportPage></Report>`;
    const [result, ms] = timed(() => loadFrx(xml, { maxDepth: 1000 }));
    expect(ms).toBeLessThan(FAST_MS);
    let depth = 0;
    let b = (result as ReturnType<typeof loadFrx>).report.pages[0]?.bands[0] as { bands: unknown[] } | undefined;
    while (b) {
      depth++;
      b = b.bands[0] as typeof b;
    }
    expect(depth).toBe(n);
  });
  it('refuses too many elements and over-long attribute values', () => {
    refusedQuickly(`<Report>${'<Style/>'.repeat(200_001)}</Report>`, /more than maxElements \(200000\)/);
    refusedQuickly(frx('', '', `ReportInfo.Description="${'d'.repeat(5000)}"`), /maxAttributeValueLength \(1000\)/, {
      maxAttributeValueLength: 1000,
    });
  });
  it('refuses absurd counts instead of allocating for them', () => {
    const { report, warnings } = loadFrx(
      frx('<DataBand Name="D" Columns.Count="2147483647" RepeatBandNTimes="99999999"/>').replace(
        '<ReportPage Name="Page1">',
        '<ReportPage Name="Page1" Columns.Count="2000000000">',
      ),
    );
    expect(report.pages[0]?.columns.count).toBe(1);
    expect(report.pages[0]?.bands[0]).toMatchObject({ columns: { count: 0 }, repeatBandNTimes: 1 });
    expect(warnings.join('\n')).toMatch(/Columns.Count=2000000000 is outside/);
  });
});

describe('scripts are recorded by the loader, never run by it', () => {
  const script = `using System;
namespace FastReport
{
  public class ReportScript
  {
    private void Text1_BeforePrint(object sender, EventArgs e)
    {
      System.IO.File.Delete("C:\\\\important.txt");
    }
  }
}
globalThis.__frxScriptRan = true; process.exit(3);`;
  const xml =
    `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp" StartReportEvent="_StartReport" FinishReportEvent="_Finish">
  <ScriptText><![CDATA[${script}]]></ScriptText>
  <Dictionary/>
  <ReportPage Name="Page1" StartPageEvent="Page1_StartPage">
    <DataBand Name="Data1" Height="20" BeforePrintEvent="Data1_BeforePrint" AfterLayoutEvent="Data1_AfterLayout">
      <TextObject Name="Text1" Width="100" Height="20" Text="x" BeforePrintEvent="Text1_BeforePrint" ` +
    `AfterDataEvent="Text1_AfterData" ClickEvent="Text1_Click"/>
    </DataBand>
  </ReportPage>
</Report>`;

  it('keeps the script text and every handler name, and warns about them', () => {
    const { report, warnings } = loadFrx(xml);
    expect((globalThis as Record<string, unknown>).__frxScriptRan).toBeUndefined();
    expect(report.scriptText).toBe(script);
    expect(report.events).toEqual({ StartReportEvent: '_StartReport', FinishReportEvent: '_Finish' });
    expect(report.pages[0]?.events).toEqual({ StartPageEvent: 'Page1_StartPage' });
    const data = report.pages[0]?.bands[0];
    expect(data?.events).toEqual({ BeforePrintEvent: 'Data1_BeforePrint', AfterLayoutEvent: 'Data1_AfterLayout' });
    expect(data?.objects[0]?.events).toEqual({
      BeforePrintEvent: 'Text1_BeforePrint',
      AfterDataEvent: 'Text1_AfterData',
      ClickEvent: 'Text1_Click',
    });
    expect(data?.objects[0]?.raw).toEqual({});
    // The engine runs every handler here (the preview's Click has no user in a render), so
    // the loader names none; a matrix's ModifyResult it does not run yet is named.
    expect(warnings).toEqual([]);
    const matrix = xml.replace(
      '</DataBand>',
      '<MatrixObject Name="Matrix1" Width="10" Height="10" ModifyResultEvent="Matrix1_ModifyResult"/></DataBand>',
    );
    expect(loadFrx(matrix).warnings).toEqual([
      'Script event handlers not run yet: Matrix1.ModifyResultEvent=Matrix1_ModifyResult',
    ]);
  });
  it('says nothing of the default empty class; a script in another language is ignored with a warning', () => {
    const empty = 'using System;\nnamespace FastReport\n{\n  public class ReportScript\n  {\n  }\n}\n';
    expect(loadFrx(frx('', `<ScriptText>${empty}</ScriptText>`)).warnings).toEqual([]);
    const vb = frx('', '<ScriptText>Public Class ReportScript\nEnd Class</ScriptText>').replace(
      'ScriptLanguage="CSharp"',
      'ScriptLanguage="VisualBasic"',
    );
    expect(loadFrx(vb).warnings).toEqual(['ScriptText (VisualBasic) is ignored: only C# report scripts are run']);
  });
});

describe('malformed and foreign input', () => {
  it('reports malformed XML with its line', () => {
    const lines = frx('<DataBand Name="Data1">\n<TextObject Name="T" Text="unterminated/>\n</DataBand>').split('\n');
    const err = templateError(() => loadFrx(lines.join('\n')));
    expect(err.message).toMatch(/^line \d+: malformed XML: /);
    const mismatched = templateError(() => loadFrx('<Report>\n<ReportPage>\n</Report>'));
    expect(mismatched.where).toBe('line 3');
    expect(templateError(() => loadFrx(fixtureBytes('Text.frx').subarray(0, 3000))).message).toMatch(/malformed XML/);
  });
  it('refuses what is not a report', () => {
    expect(templateError(() => loadFrx('<html><body/></html>')).message).toBe(
      'line 1: the root element is <html>, not <Report>: not a FastReport template',
    );
    expect(templateError(() => loadFrx('')).message).toMatch(/malformed XML/);
    expect(templateError(() => loadFrx(Buffer.from('rij\x01\x02\x03 encrypted'))).message).toMatch(
      /password-protected/,
    );
    expect(templateError(() => loadFrx('<inherited BaseReport="base.frx"/>')).message).toMatch(
      /the base report "base.frx" cannot be found/,
    );
    expect(templateError(() => loadFrx(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01]))).message).toMatch(
      /gzip input is corrupt/,
    );
  });
  it('treats a hostile attribute name as data', () => {
    const { report } = loadFrx(
      frx('<DataBand Name="D"><TextObject Name="T" __proto__="polluted" constructor="c"/></DataBand>'),
    );
    const t = report.pages[0]?.bands[0]?.objects[0];
    expect(t?.raw).toEqual({ ['__proto__']: 'polluted', constructor: 'c' });
    expect(Object.getPrototypeOf(t?.raw)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
