// Business objects with lists (FastReport's BusinessObjectDataSource nested in another): rows
// supplied as plain objects whose list property is a nested data source of its own, walked by a
// data band under the parent's band and reached by the parent's alias path in expressions.
// FastReport's Business Objects demo gets its categories and products from nwind.xml the way its
// demo program builds them.

import { describe, expect, it } from 'vitest';
import { shownText, type PreparedText } from '../../../src/report/engine/prepared.js';
import { TemplateError } from '../../../src/report/errors.js';
import { prepareReport } from '../../../src/report/render.js';
import { demoFile } from '../../support/fastreport-demos.js';
import { nwindRows } from '../engine/helpers.js';

const TEMPLATE =
  '<?xml version="1.0" encoding="utf-8"?><Report><Dictionary>' +
  '<BusinessObjectDataSource Name="Shelves" ReferenceName="Shelves" Enabled="true">' +
  '<Column Name="Label" DataType="System.String"/>' +
  '<BusinessObjectDataSource Name="Boxes1" Alias="Boxes" PropName="Boxes" Enabled="true">' +
  '<Column Name="Code" DataType="System.String"/>' +
  '<BusinessObjectDataSource Name="Items1" Alias="Items" PropName="Items" Enabled="true">' +
  '<Column Name="Weight" DataType="System.Int32"/></BusinessObjectDataSource>' +
  '</BusinessObjectDataSource></BusinessObjectDataSource></Dictionary>' +
  '<ReportPage Name="Page1"><DataBand Name="S" Width="718.2" Height="20" DataSource="Shelves">' +
  '<TextObject Name="Shelf" Width="300" Height="20" Text="[Shelves.Label]"/>' +
  '<DataBand Name="B" Width="718.2" Height="20" DataSource="Boxes1">' +
  '<TextObject Name="Box" Width="300" Height="20" Text="[Shelves.Label]/[Shelves.Boxes.Code]"/>' +
  '<DataBand Name="I" Width="718.2" Height="20" DataSource="Items1">' +
  '<TextObject Name="Item" Width="300" Height="20" Text="[Shelves.Boxes.Code]:[Shelves.Boxes.Items.Weight]"/>' +
  '</DataBand></DataBand></DataBand></ReportPage></Report>';

const shelves = [
  {
    Label: 'A',
    Boxes: [
      { Code: 'a1', Items: [{ Weight: 1 }, { Weight: 2 }] },
      { Code: 'a2', Items: [] },
    ],
  },
  { Label: 'B', Boxes: null },
  { Label: 'C', Boxes: [{ Code: 'c1', Items: [{ Weight: 7 }] }] },
];

const printed = (template: string | Buffer, tables: Record<string, unknown[]>) => {
  const r = prepareReport({ template, data: { tables } });
  const texts = r.prepared.pages.flatMap((p) => p.items.filter((i): i is PreparedText => i.kind === 'text'));
  return { r, texts: texts.map((t) => `${t.name}=${shownText(t)}`) };
};

describe('nested lists of plain rows', () => {
  it('are data sources of their own, walked under their parent row, two levels deep', () => {
    const { r, texts } = printed(TEMPLATE, { Shelves: shelves });
    expect(r.warnings.list).toEqual([]);
    // A row whose detail list is empty or null prints nothing (PrintIfDetailEmpty is false).
    expect(texts).toEqual(['Shelf=A', 'Box=A/a1', 'Item=a1:1', 'Item=a1:2', 'Shelf=C', 'Box=C/c1', 'Item=c1:7']);
  });

  it('print the rows of an empty or null list’s parent with PrintIfDetailEmpty', () => {
    const { texts } = printed(
      TEMPLATE.replaceAll(
        'Height="20" DataSource="Shelves"',
        'Height="20" DataSource="Shelves" PrintIfDetailEmpty="true"',
      ).replace('DataSource="Boxes1"', 'DataSource="Boxes1" PrintIfDetailEmpty="true"'),
      { Shelves: shelves },
    );
    expect(texts).toEqual([
      'Shelf=A',
      'Box=A/a1',
      'Item=a1:1',
      'Item=a1:2',
      'Box=A/a2',
      'Shelf=B',
      'Shelf=C',
      'Box=C/c1',
      'Item=c1:7',
    ]);
  });

  it('refuse a list property that is not a list, naming the row', () => {
    expect(() => printed(TEMPLATE, { Shelves: [{ Label: 'X', Boxes: 'nope' }] })).toThrow(TemplateError);
    expect(() => printed(TEMPLATE, { Shelves: [{ Label: 'X', Boxes: 'nope' }] })).toThrow(/row 1, column "Boxes"/);
  });

  const DEMO = 'Reports/Business Objects.frx';
  it('print the Business Objects demo: every category of nwind.xml with its products and prices', () => {
    const products = nwindRows('Products');
    const categories = nwindRows('Categories');
    const objects = categories.map((c) => ({
      Name: c.CategoryName,
      Description: c.Description,
      Products: products
        .filter((p) => p.CategoryID === c.CategoryID)
        .map((p) => ({ Name: p.ProductName, UnitPrice: Number(p.UnitPrice) })),
    }));
    const { r, texts } = printed(demoFile(DEMO), { 'Categories BusinessObject': objects });
    expect(r.warnings.list).toEqual([]);
    const shown = texts.map((t) => t.slice(t.indexOf('=') + 1));
    let at = 0;
    for (const c of objects) {
      at = shown.indexOf(c.Name as string, at);
      expect(at).toBeGreaterThanOrEqual(0);
      for (const p of c.Products) {
        at = shown.indexOf(p.Name as string, at);
        expect(at, `${c.Name}: ${p.Name}`).toBeGreaterThan(0);
        expect(shown[at + 1]).toBe(`$${p.UnitPrice.toFixed(2)}`);
      }
    }
  });
});
