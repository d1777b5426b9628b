// loadFrx on hand-written templates: defaults, the dictionary, formats, unsupported and
// unknown elements, raw attributes, gzip.

import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadFrx } from '../../../src/report/frx/load.js';
import type { DataBandModel, GroupHeaderBandModel, TextObjectModel } from '../../../src/report/frx/model.js';
import { fixtureBytes, frx, obj } from './helpers.js';

const transparent = { kind: 'Solid', color: { r: 255, g: 255, b: 255, a: 0 } };

describe('defaults', () => {
  const { report, warnings } = loadFrx(
    frx(`
    <DataBand Name="Data1" Height="20">
      <TextObject Name="Text1"/>
      <PictureObject Name="Picture1"/>
      <LineObject Name="Line1"/>
      <ShapeObject Name="Shape1"/>
    </DataBand>
    <GroupHeaderBand Name="G1" Condition="[X]"><DataBand Name="Data2"/></GroupHeaderBand>`),
  );

  it('applies report and page defaults', () => {
    expect(warnings).toEqual([]);
    expect(report).toMatchObject({
      convertNulls: true,
      doublePass: false,
      scriptLanguage: 'CSharp',
      initialPageNumber: 1,
      maxPages: 0,
      styles: [],
    });
    expect(report.pages[0]).toMatchObject({
      paperWidth: 210,
      paperHeight: 297,
      leftMargin: 10,
      topMargin: 10,
      rightMargin: 10,
      bottomMargin: 10,
      landscape: false,
      columns: { count: 1, width: 190, positions: [0] },
      titleBeforeHeader: true,
      fill: { kind: 'Solid', color: { r: 255, g: 255, b: 255, a: 255 } },
      subreportOf: '',
    });
  });
  it('applies text object defaults', () => {
    const t = obj(report, 'Text1', 'TextObject');
    expect(t).toMatchObject({
      text: '',
      padding: { left: 2, top: 0, right: 2, bottom: 0 },
      font: { family: 'Arial', sizePt: 10, bold: false, italic: false, underline: false, strikeout: false },
      wordWrap: true,
      textFill: { kind: 'Solid', color: { r: 0, g: 0, b: 0, a: 255 } },
      fill: transparent,
      format: { kind: 'General' },
      formats: [{ kind: 'General' }],
      horzAlign: 'Left',
      vertAlign: 'Top',
      angle: 0,
      duplicates: 'Show',
      textRenderType: 'Default',
      canBreak: true,
      allowExpressions: true,
      brackets: '[,]',
      shiftMode: 'Always',
      visible: true,
      printable: true,
      exportable: true,
      anchor: ['Top', 'Left'],
      dock: 'None',
      tabWidth: 58,
      clip: true,
      trimming: 'None',
      fontWidthRatio: 1,
      highlight: [],
      events: {},
      raw: {},
    });
    expect(t.border).toEqual({
      lines: { left: false, top: false, right: false, bottom: false },
      leftLine: { color: { r: 0, g: 0, b: 0, a: 255 }, style: 'Solid', width: 1 },
      topLine: { color: { r: 0, g: 0, b: 0, a: 255 }, style: 'Solid', width: 1 },
      rightLine: { color: { r: 0, g: 0, b: 0, a: 255 }, style: 'Solid', width: 1 },
      bottomLine: { color: { r: 0, g: 0, b: 0, a: 255 }, style: 'Solid', width: 1 },
      shadow: false,
      shadowWidth: 4,
      shadowColor: { r: 0, g: 0, b: 0, a: 255 },
    });
  });
  it('applies band, picture, line and shape defaults', () => {
    const data = report.pages[0]?.bands[0] as DataBandModel;
    expect(data).toMatchObject({
      dataSource: '',
      rowCount: 1,
      maxRows: 0,
      indent: 37.8,
      canBreak: false,
      shiftMode: 'Never',
      sort: [],
      columns: { count: 0, width: 0, layout: 'AcrossThenDown', minRowCount: 0 },
      header: null,
      footer: null,
      bands: [],
    });
    expect(report.pages[0]?.bands[1]).toMatchObject({
      type: 'GroupHeaderBand',
      sortOrder: 'Ascending',
      data: { name: 'Data2' },
    });
    expect(obj(report, 'Picture1', 'PictureObject')).toMatchObject({
      sizeMode: 'Zoom',
      padding: { left: 0, top: 0, right: 0, bottom: 0 },
      transparency: 0,
    });
    expect(obj(report, 'Line1', 'LineObject')).toMatchObject({
      diagonal: false,
      startCap: { width: 8, height: 8, style: 'None' },
    });
    expect(obj(report, 'Shape1', 'ShapeObject')).toMatchObject({ shape: 'Rectangle', curve: 0 });
  });
});

describe('the dictionary', () => {
  const { report } = loadFrx(
    frx(
      '',
      `
  <Dictionary>
    <JsonDataSourceConnection Name="Connection" ConnectionString="rijcmlqWGmcWl1dM3QVN6O1ffjM0Ncow2sAeYvw==">
      <JsonTableDataSource Name="JSON" DataType="FastReport.Data.JsonConnection.JsonParser.JsonArray" ` +
        `Enabled="true" TableName="JSON">
        <Column Name="index" DataType="System.Int32"/>
        <Column Name="item" DataType="FastReport.JsonBase">
          <Column Name="name" DataType="System.String"/>
          <JsonTableDataSource Name="orders1" Alias="orders" DataType="FastReport.JsonBase"/>
        </Column>
        <Column Name="array" DataType="FastReport.JsonBase"/>
      </JsonTableDataSource>
    </JsonDataSourceConnection>
    <Parameter Name="Region" DataType="System.String" Expression="&quot;WA&quot;">
      <Parameter Name="Sub" DataType="System.Int32" Value="5"/>
    </Parameter>
    <Total Name="T1" TotalType="Avg" Expression="[X]" Evaluator="Data1" PrintOn="Footer1" ` +
        `ResetOnReprint="true" EvaluateCondition="[X] &gt; 0" IncludeInvisibleRows="true"/>
    <Total Name="T2" TotalType="CountDistinct" Expression="[Y]"/>
  </Dictionary>`,
    ).replace('<Dictionary/>', ''),
  );

  it('keeps connection strings as written, encrypted ones included', () => {
    const conn = report.dictionary.connections[0];
    expect(conn).toMatchObject({
      type: 'JsonDataSourceConnection',
      name: 'Connection',
      connectionString: 'rijcmlqWGmcWl1dM3QVN6O1ffjM0Ncow2sAeYvw==',
    });
    const table = conn?.dataSources[0];
    expect(table).toMatchObject({
      type: 'JsonTableDataSource',
      name: 'JSON',
      alias: 'JSON',
      tableName: 'JSON',
      enabled: true,
    });
    expect(table?.columns.map((c) => c.name)).toEqual(['index', 'item', 'array']);
    expect(table?.columns[1]?.columns.map((c) => c.name)).toEqual(['name']);
    expect(table?.columns[1]?.dataSources[0]).toMatchObject({ name: 'orders1', alias: 'orders' });
  });
  it('reads nested parameters and totals', () => {
    expect(report.dictionary.parameters).toMatchObject([
      {
        name: 'Region',
        dataType: 'System.String',
        expression: '"WA"',
        value: '',
        parameters: [{ name: 'Sub', dataType: 'System.Int32', value: '5', parameters: [] }],
      },
    ]);
    expect(report.dictionary.totals).toMatchObject([
      {
        name: 'T1',
        totalType: 'Avg',
        evaluator: 'Data1',
        printOn: 'Footer1',
        resetAfterPrint: true,
        resetOnReprint: true,
        evaluateCondition: '[X] > 0',
        includeInvisibleRows: true,
      },
      { name: 'T2', totalType: 'CountDistinct', expression: '[Y]' },
    ]);
  });
});

describe('text object details', () => {
  const { report, warnings } = loadFrx(
    frx(
      `
    <DataBand Name="Data1">
      <TextObject Name="Multi" Text="[A] and [B] and [C]" NullValue="-" HideZeros="true" HideValue="0" HtmlTags="true">
        <Formats>
          <NumberFormat UseLocale="false" DecimalDigits="3" DecimalSeparator="," ` +
        `GroupSeparator="." NegativePattern="1"/>
          <DateFormat Format="yyyy-MM-dd"/>
          <BooleanFormat TrueText="Yes" FalseText="No"/>
        </Formats>
        <Highlight>
          <Condition Expression="Value &lt; 0" Visible="false" Font="Arial, 9pt, style=Italic" ` +
        `ApplyFont="true" Border.Lines="All" ApplyBorder="true"/>
          <Condition Expression="Value == 0"/>
        </Highlight>
      </TextObject>
      <TextObject Name="Pct" Format="Percent" Format.DecimalDigits="1"/>
      <TextObject Name="Custom" Format="Custom" Format.Format="0.00;(0.00)"/>
      <TextObject Name="Bool" Format="Boolean" Format.TrueText="✓"/>
      <TextObject Name="Time" Format="Time"/>
      <TextObject Name="Num" Format="Number"/>
      <TextObject Name="Html" TextRenderType="HtmlParagraph" HtmlTags="false"/>
      <TextObject Name="Hatch" Fill="Hatch" Fill.ForeColor="Red" Fill.Style="Cross" TextFill="Glass"/>
    </DataBand>`,
    ),
  );

  it('reads <Formats>, null/zero handling and legacy HtmlTags', () => {
    expect(warnings).toEqual([]);
    const t = obj(report, 'Multi', 'TextObject');
    expect(t.formats).toEqual([
      {
        kind: 'Number',
        useLocale: false,
        decimalDigits: 3,
        decimalSeparator: ',',
        groupSeparator: '.',
        negativePattern: 1,
      },
      { kind: 'Date', format: 'yyyy-MM-dd' },
      { kind: 'Boolean', trueText: 'Yes', falseText: 'No' },
    ]);
    expect(t.format).toBe(t.formats[0]);
    expect(t).toMatchObject({ nullValue: '-', hideZeros: true, hideValue: '0', textRenderType: 'HtmlTags' });
    expect(obj(report, 'Html', 'TextObject').textRenderType).toBe('HtmlParagraph');
  });
  it('reads highlight conditions with their defaults', () => {
    const [c1, c2] = obj(report, 'Multi', 'TextObject').highlight;
    expect(c1).toMatchObject({
      expression: 'Value < 0',
      visible: false,
      applyFont: true,
      applyBorder: true,
      font: { sizePt: 9, italic: true },
    });
    expect(c1?.border.lines.left).toBe(true);
    expect(c2).toMatchObject({
      expression: 'Value == 0',
      visible: true,
      applyFill: false,
      applyTextFill: true,
      applyFont: false,
      textFill: { kind: 'Solid', color: { r: 255, g: 0, b: 0, a: 255 } },
      fill: transparent,
    });
  });
  it('reads every Format kind with its defaults', () => {
    expect(obj(report, 'Pct', 'TextObject').format).toEqual({
      kind: 'Percent',
      useLocale: true,
      decimalDigits: 1,
      decimalSeparator: '.',
      groupSeparator: ',',
      percentSymbol: '%',
      positivePattern: 0,
      negativePattern: 0,
    });
    expect(obj(report, 'Custom', 'TextObject').format).toEqual({ kind: 'Custom', format: '0.00;(0.00)' });
    expect(obj(report, 'Bool', 'TextObject').format).toEqual({ kind: 'Boolean', trueText: '✓', falseText: 'False' });
    expect(obj(report, 'Time', 'TextObject').format).toEqual({ kind: 'Time', format: 't' });
    expect(obj(report, 'Num', 'TextObject').format).toMatchObject({
      kind: 'Number',
      useLocale: true,
      decimalDigits: 2,
    });
  });
  it('reads hatch and glass fills from their defaults', () => {
    const t = obj(report, 'Hatch', 'TextObject');
    expect(t.fill).toEqual({
      kind: 'Hatch',
      foreColor: { r: 255, g: 0, b: 0, a: 255 },
      backColor: { r: 255, g: 255, b: 255, a: 255 },
      style: 'Cross',
    });
    expect(t.textFill).toEqual({ kind: 'Glass', color: { r: 255, g: 255, b: 255, a: 255 }, blend: 0.2, hatch: true });
  });
});

describe('page settings', () => {
  it('reads landscape pages, margins and columns', () => {
    const xml = frx('').replace(
      '<ReportPage Name="Page1">',
      '<ReportPage Name="Page1" Landscape="true" PaperWidth="297" PaperHeight="210" LeftMargin="15" ' +
        'Columns.Count="2" Columns.Width="130" Columns.Positions="0,140" StartOnOddPage="true" ' +
        'ResetPageNumber="true" PrintOnPreviousPage="true" Watermark.Enabled="true" Watermark.Text="DRAFT">',
    );
    const { report, warnings } = loadFrx(xml);
    expect(report.pages[0]).toMatchObject({
      landscape: true,
      paperWidth: 297,
      paperHeight: 210,
      leftMargin: 15,
      rightMargin: 10,
      columns: { count: 2, width: 130, positions: [0, 140] },
      startOnOddPage: true,
      resetPageNumber: true,
      printOnPreviousPage: true,
      watermark: { text: 'DRAFT', textRotation: 'ForwardDiagonal', showTextOnTop: true, imageSize: 'Zoom' },
      raw: {},
    });
    expect(warnings).toEqual([]);
  });
  it('swaps the default paper for Landscape alone', () => {
    const { report } = loadFrx(
      frx('').replace('<ReportPage Name="Page1">', '<ReportPage Name="Page1" Landscape="true">'),
    );
    expect(report.pages[0]).toMatchObject({ paperWidth: 297, paperHeight: 210, columns: { width: 277 } });
  });
});

describe('unsupported, unknown and misplaced elements', () => {
  const xml = frx(
    `
    <DataBand Name="Data1">
      <TableObject Name="Table1" Width="100"><TableColumn Name="Column1"/><TableRow ` +
      `Name="Row1"><TableCell Name="Cell1" Text="x"/></TableRow></TableObject>
      <CrossViewObject Name="Barcode1" Kind="Line"/>
      <HtmlObject Name="Rich1"/>
      <SubreportObject Name="Subreport1" ReportPage="Page2"/>
      <FancyObject Name="Fancy1"/>
      <PageHeaderBand Name="Misplaced"/>
    </DataBand>
    <TextObject Name="OnThePage"/>`,
    '',
    'ConvertNulls="false" Custom.Setting="kept"',
  ).replace(
    '</Report>',
    '<ReportPage Name="Page2"><DataBand Name="Sub"/></ReportPage><DialogPage Name="Form1"/><Extra/></Report>',
  );
  const { report, warnings } = loadFrx(xml, { keepXml: true });

  it('keeps recognised objects as unsupported, with their elements', () => {
    const table = obj(report, 'Table1', 'TableObject');
    expect(table).toMatchObject({ width: 100, canGrow: true, canShrink: true });
    expect(table.cells[0]?.[0]).toMatchObject({ name: 'Cell1', text: 'x', colSpan: 1, rowSpan: 1 });
    expect(obj(report, 'Barcode1', 'Unsupported').raw).toEqual({ Kind: 'Line' });
    expect(obj(report, 'Rich1', 'Unsupported').className).toBe('HtmlObject');
    expect(report.pages[1]?.subreportOf).toBe('Subreport1');
    expect(report.pages[0]?.subreportOf).toBe('');
  });
  it('leaves unknown elements out, with warnings naming them', () => {
    expect((report.pages[0]!.bands[0] as DataBandModel).objects.map((o) => o.name)).toEqual([
      'Table1',
      'Barcode1',
      'Rich1',
      'Subreport1',
    ]);
    expect(warnings).toEqual([
      'CrossViewObject "Barcode1" (line 9) is not supported and will not be rendered',
      'HtmlObject "Rich1" (line 10) is not supported and will not be rendered',
      'Unknown element FancyObject "Fancy1" (line 12) inside DataBand "Data1" (line 7) is ignored',
      'PageHeaderBand "Misplaced" (line 13) cannot be inside DataBand "Data1" (line 7) and is ignored',
      'TextObject "OnThePage" (line 15) cannot be placed directly on ReportPage "Page1" (line 5) and is ignored',
      'Unknown element Extra (line 17) in the report is ignored',
    ]);
  });
  it('keeps unknown attributes in raw and returns the XML when asked', () => {
    expect(report.convertNulls).toBe(false);
    expect(report.raw).toEqual({ 'Custom.Setting': 'kept' });
    expect(loadFrx(xml).xml).toBeUndefined();
  });
});

describe('bad values and structure', () => {
  it('warns about unreadable values and keeps the defaults', () => {
    const { report, warnings } = loadFrx(
      frx(
        `
      <DataBand Name="Data1" Height="tall" CanGrow="maybe">
        <TextObject Name="T" Font="Arial, huge" Fill.Color="Ultraviolet" HorzAlign="Middle" ` +
          `Padding="1, 2" Border.Lines="Left, Up" Format="Money"/>
      </DataBand>`,
      ),
    );
    const t = obj(report, 'T', 'TextObject') as TextObjectModel;
    expect(t).toMatchObject({
      font: { family: 'Arial', sizePt: 10 },
      fill: transparent,
      horzAlign: 'Left',
      format: { kind: 'General' },
    });
    expect(report.pages[0]?.bands[0]).toMatchObject({ height: 0, canGrow: false });
    expect(warnings).toEqual([
      'DataBand "Data1" (line 7): Height="tall" is not a number within ±10000000; the default is used',
      'DataBand "Data1" (line 7): CanGrow="maybe" is not a boolean; the default is used',
      'TextObject "T" (line 8): Border.Lines="Left, Up" is not a combination of Left|Right|Top|Bottom; the ' +
        'default is used',
      'TextObject "T" (line 8): Fill.Color="Ultraviolet" is not a colour; the default is used',
      'TextObject "T" (line 8): Format="Money" is not a format ' +
        '(General|Number|Currency|Percent|Date|Time|Custom|Boolean); the default is used',
      'TextObject "T" (line 8): Padding="1, 2" is not a padding ("left, top, right, bottom"); the default is used',
      'TextObject "T" (line 8): HorzAlign="Middle" is not one of Left|Center|Right|Justify; the default is used',
      'TextObject "T" (line 8): Font="Arial, huge" is not a font; the default is used',
    ]);
  });
  it('follows FastReport for doubled or conflicting bands', () => {
    const { report, warnings } = loadFrx(
      frx(`
      <GroupHeaderBand Name="G">
        <DataBand Name="D1"/>
        <GroupHeaderBand Name="Nested"/>
        <GroupFooterBand Name="F1"/>
        <GroupFooterBand Name="F2"/>
      </GroupHeaderBand>`),
    );
    const g = report.pages[0]?.bands[0] as GroupHeaderBandModel;
    expect(g.data?.name).toBe('D1');
    expect(g.nestedGroup).toBeNull();
    expect(g.groupFooter?.name).toBe('F2');
    expect(warnings).toEqual([
      'GroupHeaderBand "Nested" (line 9): GroupHeaderBand "G" (line 7) already has a data band; the nested ' +
        'group is ignored',
      'GroupHeaderBand "G" (line 7) has more than one GroupFooterBand; GroupFooterBand "F2" (line 11) ' +
        'replaces the earlier one',
    ]);
  });
});

describe('gzip', () => {
  it('loads a gzip-compressed template like the plain one', () => {
    const plain = loadFrx(fixtureBytes('Groups.frx'));
    const packed = loadFrx(gzipSync(fixtureBytes('Groups.frx')));
    expect(packed.report.compressed).toBe(true);
    expect(plain.report.compressed).toBe(false);
    expect({ ...packed.report, compressed: false }).toEqual(plain.report);
    expect(packed.warnings).toEqual(plain.warnings);
  });
});
