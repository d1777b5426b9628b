// The report as a script sees it: report objects and bands by name, their changes
// lasting for the band's print only (FastReport's SaveState/RestoreState), AfterData seeing the
// printed text, Report and Engine members, data sources a handler walks itself, dialog
// handlers run as if OK was pressed, and the demos of the issue against nwind.xml.
import { describe, expect, it } from 'vitest';
import type { PreparedItem, PreparedReport } from '../../../src/report/engine/index.js';
import { demoFile } from '../../support/fastreport-demos.js';
import { collate, nwindDataSet, nwindRows, runTemplate, textsOf } from './helpers.js';

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const categories = nwindRows('Categories');

function items(r: PreparedReport, name: string): PreparedItem[] {
  return r.pages.flatMap((p) => p.items.filter((i) => i.name === name));
}

/** A one-band list of the categories, with the script's methods and extra attributes. */
function report(methods: string, opts: { data?: string; text?: string; title?: string; extra?: string } = {}) {
  const script =
    'using System;\nusing System.Drawing;\nnamespace FastReport\n{\n  public class ReportScript\n  {\n' +
    `${methods}\n  }\n}`;
  return `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp"${methods.includes('_StartReport') ? ' StartReportEvent="_StartReport"' : ''}>
  <ScriptText>${esc(script)}</ScriptText>
  <Dictionary>
    <TableDataSource Name="Categories" ReferenceName="NorthWind.Categories" DataType="System.Int32" Enabled="true">
      <Column Name="CategoryID" DataType="System.Int32"/>
      <Column Name="CategoryName" DataType="System.String"/>
      <Column Name="Description" DataType="System.String"/>
    </TableDataSource>
    <Parameter Name="P" DataType="System.String" Expression="&quot;designed&quot;"/>
  </Dictionary>
  <ReportPage Name="Page1">
    <ReportTitleBand Name="Title" Width="718.2" Height="20" ${opts.title ?? ''}>
      <TextObject Name="TitleText" Width="718" Height="20" Text="[P]"/>
    </ReportTitleBand>
    <DataBand Name="Data1" Width="718.2" Height="20" DataSource="Categories" ${opts.data ?? ''}>
      <TextObject Name="Name" Width="200" Height="20" Text="[Categories.CategoryName]" ${opts.text ?? ''}/>
      <TextObject Name="Other" Left="300" Width="200" Height="20" Text="other"/>
    </DataBand>
    ${opts.extra ?? ''}
  </ReportPage>
</Report>`;
}

const run = (frx: string, parameters?: Record<string, unknown>) =>
  runTemplate(frx, { datasets: { NorthWind: nwindDataSet() } }, parameters ? { parameters } : {});

describe('report objects by name', () => {
  it('a BeforePrint handler changes its object for that print only', () => {
    const { prepared, warnings } = run(
      report(
        `int n = 0;
    private void Name_BeforePrint(object sender, EventArgs e)
    {
      n++;
      if (n % 2 == 0) Name.Text = "even " + n;
      Name.Left = 10 * n;
    }`,
        { text: 'BeforePrintEvent="Name_BeforePrint"' },
      ),
    );
    expect(warnings).toEqual([]);
    // Odd rows keep the template's expression: the change of the row before was undone.
    expect(textsOf(prepared, 'Name')).toEqual(
      categories.map((c, i) => ((i + 1) % 2 === 0 ? `even ${i + 1}` : (c.CategoryName ?? ''))),
    );
    expect(items(prepared, 'Name').map((i) => i.x - (items(prepared, 'Name')[0]?.x ?? 0))).toEqual(
      categories.map((_, i) => 10 * i),
    );
  });

  it('a band handler hides the band and colours an object; Fill, TextColor, Font, Border and Hyperlink', () => {
    const { prepared, warnings } = run(
      report(
        `private void Data1_BeforePrint(object sender, EventArgs e)
    {
      int id = (int)Report.GetColumnValue("Categories.CategoryID");
      Data1.Visible = id != 3;
      Other.Fill = new SolidFill(Color.FromArgb(255, 0, 128));
      Other.TextColor = Color.Blue;
      Other.Font = new Font("Courier New", 12, FontStyle.Bold | FontStyle.Italic);
      Other.Border.Lines = BorderLines.All;
      Other.Border.Color = Color.Red;
      Other.Hyperlink.Value = "https://example.com/" + id;
    }`,
        { data: 'BeforePrintEvent="Data1_BeforePrint"' },
      ),
    );
    expect(warnings).toEqual([]);
    const shown = categories.filter((c) => c.CategoryID !== '3');
    expect(textsOf(prepared, 'Name')).toEqual(shown.map((c) => c.CategoryName ?? ''));
    const other = items(prepared, 'Other');
    expect(other).toHaveLength(shown.length);
    for (const [i, o] of other.entries()) {
      if (o.kind !== 'text') throw new Error('Other is not a text');
      expect(o.fill).toEqual({ kind: 'Solid', color: { r: 255, g: 0, b: 128, a: 255 } });
      expect(o.textFill).toEqual({ kind: 'Solid', color: { r: 0, g: 0, b: 255, a: 255 } });
      expect(o.font).toMatchObject({ family: 'Courier New', sizePt: 12, bold: true, italic: true });
      expect(o.border.lines).toEqual({ left: true, top: true, right: true, bottom: true });
      expect(o.border.leftLine.color).toEqual({ r: 255, g: 0, b: 0, a: 255 });
      expect(o.hyperlink?.target).toBe(`https://example.com/${shown[i]?.CategoryID}`);
    }
  });

  it('AfterData sees the printed text and changes what prints', () => {
    const { prepared, warnings } = run(
      report(
        `private void Name_AfterData(object sender, EventArgs e)
    {
      Name.Text = Name.Text.ToUpper() + "!";
    }`,
        { text: 'AfterDataEvent="Name_AfterData"' },
      ),
    );
    expect(warnings).toEqual([]);
    expect(textsOf(prepared, 'Name')).toEqual(categories.map((c) => `${(c.CategoryName ?? '').toUpperCase()}!`));
  });

  it('an unknown property or a wrong value fails the handler with a warning naming it', () => {
    const { prepared, warnings } = run(
      report(
        `private void Name_BeforePrint(object sender, EventArgs e)
    {
      Name.Nonsense = 1;
    }`,
        { text: 'BeforePrintEvent="Name_BeforePrint"' },
      ),
    );
    expect(textsOf(prepared, 'Name')).toEqual(categories.map((c) => c.CategoryName ?? ''));
    expect(warnings).toEqual([
      expect.stringMatching(/^Name\.BeforePrintEvent: 'Name' \(TextObject\) has no settable property 'Nonsense'.*line/),
    ]);
  });
});

describe('Report, Engine and data sources', () => {
  it('a bad column or expression is the handler’s error, which it may catch; the report goes on', () => {
    const { prepared, warnings } = run(
      report(
        `private void _StartReport(object sender, EventArgs e)
    {
      DataSourceBase ds = Report.GetDataSource("Categories");
      ds.Init();
      string r = "";
      try { r += ds["NoSuchColumn"]; } catch (ArgumentException x) { r += "caught;"; }
      try { r += Report.Calc("1 +"); } catch (Exception x) { r += "caught again"; }
      Report.SetParameterValue("P", r);
      object v = ds["Missing"];
    }`,
      ),
    );
    expect(textsOf(prepared, 'TitleText')).toEqual(['caught;caught again']);
    expect(warnings).toEqual([expect.stringMatching(/^Report\.StartReportEvent: .*has no column Missing/)]);
    expect(textsOf(prepared, 'Name')).toEqual(categories.map((c) => c.CategoryName ?? ''));
  });

  it('walks a data source itself and sets a parameter the texts print', () => {
    const { prepared, warnings } = run(
      report(
        `private void _StartReport(object sender, EventArgs e)
    {
      DataSourceBase ds = Report.GetDataSource("Categories");
      ds.Init();
      string names = "";
      int n = 0;
      while (ds.HasMoreRows)
      {
        names += ds["CategoryName"] + ";";
        n++;
        ds.Next();
      }
      Report.SetParameterValue("P", n + ":" + ds.RowCount + ":" + ds.Columns.Count + ":" + names);
    }`,
      ),
    );
    expect(warnings).toEqual([]);
    const names = categories.map((c) => `${c.CategoryName};`).join('');
    expect(textsOf(prepared, 'TitleText')).toEqual([`${categories.length}:${categories.length}:3:${names}`]);
  });

  it('reads the passes and the page position, and moves CurY', () => {
    const { prepared, warnings } = run(
      report(
        `private void Title_AfterPrint(object sender, EventArgs e)
    {
      Engine.CurY = Engine.CurY + 100;
      Report.SetParameterValue("P", Engine.FinalPass + "/" + Engine.PageWidth);
    }`,
        { title: 'AfterPrintEvent="Title_AfterPrint"' },
      ),
    );
    expect(warnings).toEqual([]);
    const title = items(prepared, 'TitleText')[0];
    const first = items(prepared, 'Name')[0];
    expect(title && first && first.y - title.y).toBeCloseTo(120, 1);
  });
});

describe('the script budgets of a render (Settings:ScriptMaxSteps, ScriptMaxItems)', () => {
  const loop = report(`private void _StartReport(object sender, EventArgs e)
    {
      int n = 0;
      for (int i = 0; i < 20000; i++) n += i;
      Report.SetParameterValue("P", n.ToString());
    }`);

  it('a script within the budget runs; the same script over a smaller budget ends the render', () => {
    const ok = run(loop);
    expect(textsOf(ok.prepared, 'TitleText')).toEqual([String((20000 * 19999) / 2)]);
    expect(() =>
      runTemplate(loop, { datasets: { NorthWind: nwindDataSet() } }, { scriptLimits: { maxSteps: 10_000 } }),
    ).toThrow(/more than 10000 steps.*_StartReport/);
    const grow = report(`private void _StartReport(object sender, EventArgs e)
    {
      var l = new List<int>();
      for (int i = 0; i < 3000; i++) l.Add(i);
    }`).replace('using System;', 'using System;\nusing System.Collections.Generic;');
    expect(run(grow).warnings).toEqual([]);
    expect(() =>
      runTemplate(grow, { datasets: { NorthWind: nwindDataSet() } }, { scriptLimits: { maxItems: 2000 } }),
    ).toThrow(/more than 2000 collection items/);
  });
});

describe('dialog forms', () => {
  const dialog = (methods: string) =>
    report(methods, {
      extra: '',
    }).replace(
      '</Report>',
      `<DialogPage Name="Form1" LoadEvent="Form1_Load" FormClosedEvent="Form1_FormClosed">
    <TextBoxControl Name="TextBox1" Text="typed"/>
    <CheckBoxControl Name="CheckBox1" Checked="true"/>
    <ButtonControl Name="btnOk" Text="OK" DialogResult="OK" ClickEvent="btnOk_Click"/>
  </DialogPage>
  <DialogPage Name="Form2" LoadEvent="Form2_Load"/>
</Report>`,
    );

  it('runs Load, the OK button, FormClosed in order; a form hidden by a handler never loads', () => {
    const { prepared, warnings } = run(
      dialog(`string log = "";
    private void Form1_Load(object sender, EventArgs e)
    {
      log += "load:" + TextBox1.Text + ";";
      TextBox1.Text = "from load";
    }
    private void btnOk_Click(object sender, EventArgs e) { log += "ok:" + TextBox1.Text + ";"; }
    private void Form1_FormClosed(object sender, EventArgs e)
    {
      Form2.Visible = !CheckBox1.Checked;
      Report.SetParameterValue("P", log + "closed");
    }
    private void Form2_Load(object sender, EventArgs e) { Report.SetParameterValue("P", "form2"); }`),
    );
    expect(warnings).toEqual([]);
    expect(textsOf(prepared, 'TitleText')).toEqual(['load:typed;ok:from load;closed']);
  });

  it('a render parameter named after a control is what the user typed, over what Load set', () => {
    const { prepared } = run(
      dialog(`private void Form1_Load(object sender, EventArgs e) { TextBox1.Text = "from load"; }
    private void Form1_FormClosed(object sender, EventArgs e) { Report.SetParameterValue("P", TextBox1.Text); }`),
      { TextBox1: 'from the caller' },
    );
    expect(textsOf(prepared, 'TitleText')).toEqual(['from the caller']);
  });
});

describe('the demos of the issue', () => {
  const demo = (name: string) => demoFile(`Reports/${name}`).toString('utf8');

  it('Print Total in The Group Header prints each group’s total in its header, equal to its footer', () => {
    const { prepared, warnings } = run(demo('Print Total in The Group Header.frx'));
    expect(warnings).toEqual([]);
    const products = nwindRows('Products').map((p) => p.ProductName ?? '');
    const letters = [...new Set(products.map((p) => p.slice(0, 1)))].sort(collate);
    const counts = letters.map((l) => products.filter((p) => p.startsWith(l)).length);
    const texts = prepared.pages.flatMap((p) => p.items.flatMap((i) => (i.kind === 'text' ? [i.text] : [])));
    // The header reads "<letter>" and the total "Total products: n" (as the footer); find by text.
    for (const n of counts) expect(texts.filter((t) => t.includes(String(n))).length).toBeGreaterThanOrEqual(2);
    expect(counts.reduce((s, n) => s + n, 0)).toBe(products.length);
  });

  it('Fit Dynamic Table To Page: its AfterCalcBounds handler narrows the built table to the page width', () => {
    const { prepared, warnings } = run(demo('Fit Dynamic Table To Page.frx'));
    expect(warnings.filter((w) => !/substitut/i.test(w))).toEqual([]);
    const customers = nwindRows('Customers');
    // Row 1 is printed once per customer, the company name in its second column (Cell2 per column).
    const cells = prepared.pages.flatMap((p) => p.items.filter((i) => i.name === 'Cell2'));
    const names = cells.flatMap((c) => (c.kind === 'text' ? [c.text] : []));
    for (const c of customers) expect(names).toContain(c.CompanyName);
    // The handler scales every column by page width / table width: the table fits the page.
    for (const page of prepared.pages) {
      const mine = page.items.filter((i) => i.name === 'Cell1' || i.name === 'Cell2');
      if (mine.length === 0) continue;
      const right = Math.max(...mine.map((i) => i.x + i.width));
      const left = Math.min(...mine.map((i) => i.x));
      expect(right - left).toBeLessThanOrEqual(page.widthPx - page.margins.left - page.margins.right + 0.5);
    }
  });

  it.each([
    'Dialog Elements.frx',
    'Dialog Events.frx',
    'Filtering with CheckedListBox.frx',
    'Filtering with DataSelector.frx',
    'Filtering with Date Ranges.frx',
    'Filtering with Ranges.frx',
    'Handle Dialog Forms.frx',
    'Hello, FastReport!.frx',
    'Labels With Dialog.frx',
    'Print Entered Value.frx',
  ])('%s runs its dialogs with the designed values, with no warning', (name) => {
    const { prepared, warnings } = run(demo(name));
    expect(prepared.pages.length).toBeGreaterThan(0);
    expect(warnings.filter((w) => !/substitut/i.test(w))).toEqual([]);
  });
});
