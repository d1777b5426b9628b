// Report scripts in a report: the script's fields and methods in texts, band handlers
// on every pass with the state kept between passes (a first pass collects, the final pass
// prints), a failing handler skipped with a warning, a runaway one ending the render. Data:
// nwind.xml's Products, counted independently.
import { describe, expect, it } from 'vitest';
import { TemplateError } from '../../../src/report/errors.js';
import { collate, nwindDataSet, nwindRows, runTemplate, textsOf } from './helpers.js';

const products = nwindRows('Products')
  .map((p) => p.ProductName ?? '')
  .sort(collate);
const letters = [...new Set(products.map((p) => p.slice(0, 1)))];
const countOf = (letter: string): number => products.filter((p) => p.startsWith(letter)).length;

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function report(script: string, headerText = 'Total: [total]', extra = ''): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp" DoublePass="true">
  <ScriptText>${esc(script)}</ScriptText>
  <Dictionary>
    <TableDataSource Name="Products" ReferenceName="NorthWind.Products" DataType="System.Int32" Enabled="true">
      <Column Name="ProductName" DataType="System.String"/>
    </TableDataSource>
    <Total Name="TotalProducts" TotalType="Count" Evaluator="Data1" PrintOn="GroupFooter1"/>
  </Dictionary>
  <ReportPage Name="Page1">
    <GroupHeaderBand Name="GroupHeader1" Width="718.2" Height="20" BeforePrintEvent="GroupHeader1_BeforePrint"
      Condition="[Products.ProductName].Substring(0,1)">
      <TextObject Name="Head" Width="300" Height="20" Text="${esc(headerText)}"/>
      <DataBand Name="Data1" Width="718.2" Height="20" DataSource="Products">
        <TextObject Name="Name" Width="300" Height="20" Text="[Products.ProductName]"/>
        <Sort><Sort Expression="[Products.ProductName]"/></Sort>
      </DataBand>
      <GroupFooterBand Name="GroupFooter1" Width="718.2" Height="20" BeforePrintEvent="GroupFooter1_BeforePrint">
        <TextObject Name="Foot" Width="300" Height="20" Text="[TotalProducts]"/>
      </GroupFooterBand>
    </GroupHeaderBand>
    ${extra}
  </ReportPage>
</Report>`;
}

const COLLECT = `using System;
using System.Collections.Generic;
namespace FastReport
{
  public class ReportScript
  {
    private int total;
    private List<int> totals = new List<int>();

    private void GroupHeader1_BeforePrint(object sender, EventArgs e)
    {
      int groupNumber = ((Int32)Report.GetVariableValue("Row#"));
      if (Engine.FinalPass)
        total = totals[groupNumber - 1];
    }

    private void GroupFooter1_BeforePrint(object sender, EventArgs e)
    {
      if (!Engine.FinalPass)
        totals.Add(Report.GetTotalValue("TotalProducts"));
    }

    private string Initial(string name) => name.Substring(0, 1).ToUpper();
  }
}`;

const run = (frx: string) => runTemplate(frx, { datasets: { NorthWind: nwindDataSet() } });

describe('a script collecting group totals on the first pass', () => {
  const { prepared, warnings } = run(report(COLLECT));

  it('prints each group’s total in its header, equal to its footer', () => {
    expect(textsOf(prepared, 'Head')).toEqual(letters.map((l) => `Total: ${countOf(l)}`));
    expect(textsOf(prepared, 'Foot')).toEqual(letters.map((l) => String(countOf(l))));
    expect(warnings).toEqual([]);
  });

  it('lets texts call the script’s methods', () => {
    const r = run(report(COLLECT, '[Initial([Products.ProductName])]: [total]'));
    expect(textsOf(r.prepared, 'Head')).toEqual(letters.map((l) => `${l.toUpperCase()}: ${countOf(l)}`));
  });
});

describe('handlers that fail or run away', () => {
  const script = (header: string, footer = '') => `public class ReportScript {
  int total;
  void GroupHeader1_BeforePrint(object sender, EventArgs e) { ${header} }
  void GroupFooter1_BeforePrint(object sender, EventArgs e) { ${footer} }
}`;

  it('skips a handler that fails, once, with a warning naming it and its line; the report renders', () => {
    const { prepared, warnings } = run(report(script('total = 1 / (total - total);')));
    expect(textsOf(prepared, 'Foot')).toHaveLength(letters.length);
    expect(warnings).toEqual([
      'GroupHeader1.BeforePrintEvent: Attempted to divide by zero (script method GroupHeader1_BeforePrint, line 3); ' +
        'the handler is skipped from here on',
    ]);
  });

  it('ends the render with a template error when a handler loops forever', () => {
    const started = Date.now();
    let error: unknown;
    try {
      run(report(script('while (true) { total++; }')));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as Error).message).toMatch(
      /GroupHeader1.BeforePrintEvent: .*more than \d+ steps \(script method GroupHeader1_BeforePrint/,
    );
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('ends the render on runaway recursion and allocation', () => {
    const recurse = `public class ReportScript {
  int F(int n) { return F(n + 1); }
  void GroupHeader1_BeforePrint(object sender, EventArgs e) { F(0); }
}`;
    expect(() => run(report(recurse))).toThrow(/nest more than/);
    expect(() => run(report(script('var l = new List<string>(); while (true) l.Add("x");')))).toThrow(
      /collection items/,
    );
  });

  it('refuses what reaches outside, naming the line, and still renders', () => {
    const outside = `public class ReportScript {
  int total;
  void GroupHeader1_BeforePrint(object sender, EventArgs e) { System.IO.File.Delete("/tmp/x"); }
}`;
    const { prepared, warnings } = run(report(outside));
    expect(textsOf(prepared, 'Foot')).toHaveLength(letters.length);
    expect(warnings).toContain(
      "Script line 3: method GroupHeader1_BeforePrint is left out: 'System.IO' is not allowed in a report script",
    );
  });

  it.each([
    'total = globalThis.length;',
    'total = constructor.length;',
    'var p = process; total = 1;',
    'var f = require("fs"); total = 1;',
    'total = "x".constructor.name.Length;',
    'var l = new List<int>(); total = l.__proto__.Count;',
  ])('%s reaches nothing of JavaScript: the handler fails', (body) => {
    const { warnings } = run(report(script(body)));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^GroupHeader1.BeforePrintEvent: .*the handler is skipped from here on$/);
  });
});
