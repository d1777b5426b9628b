// A starter template for an SRS data sample (the `_new.frx` of an SRS): a JSON connection holding
// the sample and a schema that matches it, a report title, and per command a section:
// - an array of rows → a DataBand over the command's table with a header (caption and field
//   names, bold on a shaded background, repeated on every page) and a row of
//   `[JSON.item.cmd.item.prop]` cells; arrays inside the rows become nested (detail) DataBands,
//   object properties are flattened into `a.b` columns;
// - one object (`dtsingle`) → a label/value block of `[JSON.item.cmd.prop]`, its arrays as
//   DataBands inside the block;
// - a scalar → one label/value line.
// A4 portrait with 10 mm margins, Arial 9 pt cells that grow with their text, column widths
// dividing the printable width, and a page footer with "page / pages".

import { formatJsonConnectionString, makeNamer } from '../data/index.js';
import { TemplateError } from '../errors.js';
import { connectionXml, planTable, type NodePlan, type TablePlan } from './json-dictionary.js';
import { embeddedJson, schemaText } from './json-text.js';
import { starterSchema } from './starter-schema.js';
import { writeXml, type AttrValue, type XmlNode } from './xml-text.js';

export interface StarterOptions {
  /** The report title (ReportInfo.Name and the title band); default "Report". */
  title?: string;
}

// A4 portrait, 10 mm margins: 190 mm printable = 718.2 px at FastReport's 3.78 px/mm.
const PAGE_WIDTH = 718.2;
const ROW_HEIGHT = 18.9;
const CAPTION_HEIGHT = 26.46;
const SECTION_GAP = 9.45;
const INDENT = 18.9;
const MAX_INDENT_LEVELS = 4;
const BAND_GAP = 4; // between bands in the designer's view (band Top values only)
const LABEL_WIDTH = 215.46; // 30 % of the page for the labels of a label/value block

const FONT = 'Arial, 9pt';
const FONT_BOLD = 'Arial, 9pt, style=Bold';
const CAPTION_FONT = 'Arial, 11pt, style=Bold';
const NESTED_CAPTION_FONT = 'Arial, 9pt, style=Bold, Italic';
const TITLE_FONT = 'Arial, 14pt, style=Bold';
const FOOTER_FONT = 'Arial, 8pt';
const HEADER_FILL = 'WhiteSmoke';
const GRID_COLOR = 'Silver';
const NUMERIC = new Set(['System.Double', 'System.Int32']);

/** A value shown by a cell: where it is read and what its header says. */
interface Cell {
  label: string;
  expression: string;
  dataType: string;
}

/** A nested table found among a row's properties. */
interface NestedTable {
  table: TablePlan;
  /** Path of the table itself: `JSON.item.orders.item.lines`. */
  path: string;
  label: string;
}

/** Leaves of a row (objects flattened) and the tables inside it, in property order. */
function collect(node: NodePlan, path: string, label: readonly string[], cells: Cell[], tables: NestedTable[]): void {
  if (node.kind === 'leaf') cells.push({ label: label.join('.'), expression: `[${path}]`, dataType: node.dataType });
  else if (node.kind === 'object')
    for (const p of node.props) collect(p, `${path}.${p.alias}`, [...label, p.key], cells, tables);
  else tables.push({ table: node, path, label: label.join('.') });
}

/** Static text: no `[…]` expressions when it holds brackets. */
const literal = (text: string): [string, AttrValue][] => [
  ['Text', text],
  ['AllowExpressions', /[[\]]/.test(text) ? false : undefined],
];

class StarterWriter {
  private readonly counters = new Map<string, number>();
  private top = 0;

  constructor(private readonly names: { taken: Set<string> }) {}

  /** FastReport-style object names: Text1, Text2, … unique in the whole report. */
  name(base: string): string {
    let i = this.counters.get(base) ?? 1;
    while (this.names.taken.has(`${base}${i}`.toLowerCase())) i++;
    this.counters.set(base, i + 1);
    const n = `${base}${i}`;
    this.names.taken.add(n.toLowerCase());
    return n;
  }

  /** The next band's Top in the designer's view (bands stacked in print order). */
  place(height: number): number {
    const t = this.top;
    this.top += height + BAND_GAP;
    return t;
  }

  text(attrs: { left?: number; top?: number; width: number; height: number }, rest: [string, AttrValue][]): XmlNode {
    return {
      name: 'TextObject',
      attrs: [
        ['Name', this.name('Text')],
        ['Left', attrs.left ? attrs.left : undefined],
        ['Top', attrs.top ? attrs.top : undefined],
        ['Width', attrs.width],
        ['Height', attrs.height],
        ...rest,
      ],
    };
  }

  title(title: string): XmlNode {
    const height = 37.8;
    const top = this.place(height);
    return {
      name: 'ReportTitleBand',
      attrs: [
        ['Name', this.name('ReportTitle')],
        ['Top', top || undefined],
        ['Width', PAGE_WIDTH],
        ['Height', height],
      ],
      children: [
        this.text({ width: PAGE_WIDTH, height: 28.35 }, [
          ...literal(title),
          ['VertAlign', 'Center'],
          ['Font', TITLE_FONT],
        ]),
      ],
    };
  }

  caption(text: string, left: number, top: number, nested: boolean): XmlNode {
    return this.text(
      { left, top, width: PAGE_WIDTH - left, height: nested ? ROW_HEIGHT : CAPTION_HEIGHT - SECTION_GAP },
      [...literal(text), ['VertAlign', 'Center'], ['Font', nested ? NESTED_CAPTION_FONT : CAPTION_FONT]],
    );
  }

  /** A DataBand over a table: header (caption + field names), a row of cells, nested tables. */
  list(t: NestedTable, level: number): XmlNode {
    const indent = Math.min(level, MAX_INDENT_LEVELS) * INDENT;
    const cells: Cell[] = [];
    const nested: NestedTable[] = [];
    collect(t.table.item, `${t.path}.item`, [], cells, nested);
    // The elements themselves (a table of scalars, or of arrays) go by the table's name.
    for (const c of cells) c.label ||= t.label;
    for (const n of nested) n.label ||= `${t.label}.item`;
    const widths = columnWidths(PAGE_WIDTH - indent, cells.length);

    const captionTop = level === 0 ? SECTION_GAP : 0;
    const captionHeight = level === 0 ? CAPTION_HEIGHT : ROW_HEIGHT;
    const headerHeight = captionHeight + (cells.length > 0 ? ROW_HEIGHT : 0);
    const header: XmlNode = {
      name: 'DataHeaderBand',
      attrs: [
        ['Name', this.name('DataHeader')],
        ['Top', this.place(headerHeight)],
        ['Width', PAGE_WIDTH],
        ['Height', headerHeight],
        ['RepeatOnEveryPage', true],
      ],
      children: [this.caption(t.label, indent, captionTop, level > 0)],
    };
    let x = indent;
    cells.forEach((c, i) => {
      const w = widths[i] as number;
      header.children?.push(
        this.text({ left: x, top: captionHeight, width: w, height: ROW_HEIGHT }, [
          ['Border.Lines', 'All'],
          ['Border.Color', GRID_COLOR],
          ['Fill.Color', HEADER_FILL],
          ...literal(c.label),
          ['HorzAlign', NUMERIC.has(c.dataType) ? 'Right' : undefined],
          ['VertAlign', 'Center'],
          ['Font', FONT_BOLD],
        ]),
      );
      x += w;
    });

    const rowHeight = cells.length > 0 ? ROW_HEIGHT : 0;
    const band: XmlNode = {
      name: 'DataBand',
      attrs: [
        ['Name', this.name('Data')],
        ['Top', this.place(rowHeight)],
        ['Width', PAGE_WIDTH],
        ['Height', rowHeight],
        ['CanGrow', true],
        ['DataSource', t.table.name],
        // A row whose nested arrays are empty still shows (FastReport hides it by default).
        ['PrintIfDetailEmpty', nested.length > 0 ? true : undefined],
      ],
      children: [],
    };
    x = indent;
    cells.forEach((c, i) => {
      const w = widths[i] as number;
      band.children?.push(
        this.text({ left: x, width: w, height: ROW_HEIGHT }, [
          ['Border.Lines', 'All'],
          ['Border.Color', GRID_COLOR],
          ['CanGrow', true],
          ['GrowToBottom', true],
          ['Text', c.expression],
          ['HorzAlign', NUMERIC.has(c.dataType) ? 'Right' : undefined],
          ['VertAlign', 'Center'],
          ['Font', FONT],
        ]),
      );
      x += w;
    });
    band.children?.push(header, ...nested.map((n) => this.list(n, level + 1)));
    return band;
  }

  /** One object (or value) shown once: caption, then a label and a value per leaf; its tables
   *  as detail DataBands. */
  block(node: NodePlan, path: string, label: string): XmlNode {
    const cells: Cell[] = [];
    const nested: NestedTable[] = [];
    collect(node, path, node.kind === 'object' ? [] : [label], cells, nested);
    for (const t of nested) t.label ||= label;
    const showCaption = node.kind !== 'leaf';
    let y = showCaption ? CAPTION_HEIGHT : SECTION_GAP;
    const children: XmlNode[] = showCaption ? [this.caption(label, 0, SECTION_GAP, false)] : [];
    const bandName = this.name('Data');
    for (const c of cells) {
      children.push(
        this.text({ top: y, width: LABEL_WIDTH, height: ROW_HEIGHT }, [
          ['Border.Lines', 'All'],
          ['Border.Color', GRID_COLOR],
          ['Fill.Color', HEADER_FILL],
          ...literal(c.label),
          ['VertAlign', 'Center'],
          ['Font', FONT_BOLD],
        ]),
        this.text({ left: LABEL_WIDTH, top: y, width: PAGE_WIDTH - LABEL_WIDTH, height: ROW_HEIGHT }, [
          ['Border.Lines', 'All'],
          ['Border.Color', GRID_COLOR],
          ['CanGrow', true],
          ['Text', c.expression],
          ['VertAlign', 'Center'],
          ['Font', FONT],
        ]),
      );
      y += ROW_HEIGHT;
    }
    // No DataSource: the band prints once (RowCount 1).
    const band: XmlNode = {
      name: 'DataBand',
      attrs: [
        ['Name', bandName],
        ['Top', this.place(y)],
        ['Width', PAGE_WIDTH],
        ['Height', y],
        ['CanGrow', true],
        ['PrintIfDetailEmpty', nested.length > 0 ? true : undefined],
      ],
      children,
    };
    band.children?.push(...nested.map((n) => this.list(n, 1)));
    return band;
  }

  footer(): XmlNode {
    const height = 28.35;
    return {
      name: 'PageFooterBand',
      attrs: [
        ['Name', this.name('PageFooter')],
        ['Top', this.place(height)],
        ['Width', PAGE_WIDTH],
        ['Height', height],
      ],
      children: [
        this.text({ width: PAGE_WIDTH, height }, [
          ['Text', '[Page#] / [TotalPages#]'],
          ['HorzAlign', 'Right'],
          ['VertAlign', 'Center'],
          ['Font', FOOTER_FONT],
        ]),
      ],
    };
  }
}

/** Widths dividing `total` into `n` columns (two decimals; the last takes the rest). */
function columnWidths(total: number, n: number): number[] {
  if (n === 0) return [];
  const w = Math.floor((total / n) * 100) / 100;
  const out = Array.from({ length: n }, () => w);
  out[n - 1] = Math.round((total - w * (n - 1)) * 100) / 100;
  return out;
}

/**
 * An .frx for an SRS data sample: one JSON object (command name → array of rows, or one object
 * for a `dtsingle` command), as a JS value or JSON text. A root array is taken as one list.
 * The sample is embedded in the connection (raw JSON text), so the template opens with data in
 * FastReport's designer and renders as it is; an SRS run supplies fresh data to it.
 */
export function starterTemplate(data: unknown, options: StarterOptions = {}): string {
  const sample = embeddedJson(data, {}, 'data sample');
  const schema = starterSchema(sample.root);
  const names = makeNamer([]);
  const connectionName = names.unique('Connection');
  const table = planTable('JSON', 'JSON', names.unique('JSON'), schema, {
    uniqueName: (b) => names.unique(b),
    sanitize: true,
  });
  const connectionString = formatJsonConnectionString({ json: sample.text, jsonSchema: schemaText(schema) });
  const title = options.title ?? 'Report';

  const w = new StarterWriter(names);
  const page: XmlNode = {
    name: 'ReportPage',
    attrs: [
      ['Name', w.name('Page')],
      ['PaperWidth', 210],
      ['PaperHeight', 297],
      ['LeftMargin', 10],
      ['TopMargin', 10],
      ['RightMargin', 10],
      ['BottomMargin', 10],
    ],
    children: [],
  };
  page.children?.push(w.title(title));

  if (Array.isArray(sample.root)) page.children?.push(w.list({ table, path: 'JSON', label: 'JSON' }, 0));
  else if (table.item.kind === 'object') {
    for (const cmd of table.item.props) {
      const path = `JSON.item.${cmd.alias}`;
      page.children?.push(
        cmd.kind === 'table' ? w.list({ table: cmd, path, label: cmd.key }, 0) : w.block(cmd, path, cmd.key),
      );
    }
  } else
    throw new TemplateError('the data sample must be a JSON object (command name → rows) or an array', 'data sample');
  page.children?.push(w.footer());

  const report: XmlNode = {
    name: 'Report',
    attrs: [
      ['ScriptLanguage', 'CSharp'],
      ['ReportInfo.Name', title],
      ['ReportInfo.Description', 'Starter template generated from a data sample.'],
    ],
    children: [
      { name: 'Dictionary', attrs: [], children: [connectionXml(connectionName, connectionString, table)] },
      page,
    ],
  };
  return `<?xml version="1.0" encoding="utf-8"?>\n${writeXml(report)}\n`;
}
