// Bands and their nesting. In a .frx a ChildBand sits inside its parent band; DataHeader/
// DataFooter and detail DataBands (or groups) inside their DataBand; a GroupHeaderBand holds its
// nested group or data band, its GroupFooterBand and optional DataHeader/DataFooter.

import { readComponent } from './component.js';
import { isReportObjectElement, parseReportObject } from './objects.js';
import type {
  BandCommon,
  BandModel,
  ChildBandModel,
  DataBandModel,
  GroupHeaderBandModel,
  HeaderFooterBandModel,
  SimpleBandModel,
  SortModel,
} from './model.js';
import { Attrs, describe, type LoadContext } from './values.js';
import type { XmlElement } from './xml.js';

const SIMPLE_BANDS: readonly SimpleBandModel['type'][] = [
  'ReportTitleBand',
  'PageHeaderBand',
  'PageFooterBand',
  'ColumnHeaderBand',
  'ColumnFooterBand',
  'OverlayBand',
];
const HEADER_FOOTER_BANDS: readonly HeaderFooterBandModel['type'][] = [
  'DataHeaderBand',
  'DataFooterBand',
  'GroupFooterBand',
  'ReportSummaryBand',
];

export const BAND_ELEMENTS: ReadonlySet<string> = new Set<string>([
  ...SIMPLE_BANDS,
  ...HEADER_FOOTER_BANDS,
  'ChildBand',
  'DataBand',
  'GroupHeaderBand',
]);

function isSimple(name: string): name is SimpleBandModel['type'] {
  return (SIMPLE_BANDS as readonly string[]).includes(name);
}
function isHeaderFooter(name: string): name is HeaderFooterBandModel['type'] {
  return (HEADER_FOOTER_BANDS as readonly string[]).includes(name);
}

/** Largest band repeat/column count accepted; bigger values fall back to the default. */
const MAX_COUNT = 1000;

function readCommon(a: Attrs): BandCommon {
  return {
    ...readComponent(a, true),
    canBreak: a.bool('CanBreak', false),
    startNewPage: a.bool('StartNewPage', false),
    firstRowStartsNewPage: a.bool('FirstRowStartsNewPage', false),
    printOnBottom: a.bool('PrintOnBottom', false),
    keepChild: a.bool('KeepChild', false),
    outlineExpression: a.str('OutlineExpression'),
    repeatBandNTimes: boundedInt(a, 'RepeatBandNTimes', 1, 1, MAX_COUNT),
    objects: [],
    child: null,
  };
}

function boundedInt(a: Attrs, key: string, def: number, min: number, max: number): number {
  const v = a.int(key, def);
  if (v < min || v > max) {
    a.ctx.warn(`${a.owner}: ${key}=${v} is outside ${min}…${max}; ${def} is used`);
    return def;
  }
  return v;
}

function parseSort(el: XmlElement, ctx: LoadContext): SortModel[] {
  const out: SortModel[] = [];
  for (const child of el.children) {
    if (child.name !== 'Sort') {
      ctx.warn(`${describe(child)} inside <Sort> is ignored`);
      continue;
    }
    const a = new Attrs(child, ctx);
    out.push({ expression: a.str('Expression'), descending: a.bool('Descending', false) });
    const left = Object.keys(a.rest());
    if (left.length > 0) ctx.warn(`${describe(child)}: attributes ${left.join(', ')} are ignored`);
  }
  return out;
}

function build(el: XmlElement, a: Attrs): BandModel | null {
  const common = readCommon(a);
  const name = el.name;
  if (isSimple(name)) return { type: name, ...common };
  if (isHeaderFooter(name)) {
    return {
      type: name,
      ...common,
      keepWithData: a.bool('KeepWithData', false),
      repeatOnEveryPage: a.bool('RepeatOnEveryPage', false),
    };
  }
  switch (name) {
    case 'ChildBand':
      return {
        type: 'ChildBand',
        ...common,
        fillUnusedSpace: a.bool('FillUnusedSpace', false),
        completeToNRows: boundedInt(a, 'CompleteToNRows', 0, 0, 1_000_000),
        printIfDatabandEmpty: a.bool('PrintIfDatabandEmpty', false),
      };
    case 'DataBand':
      return {
        type: 'DataBand',
        ...common,
        dataSource: a.str('DataSource'),
        relation: a.str('Relation'),
        filter: a.str('Filter'),
        sort: [],
        rowCount: a.int('RowCount', 1),
        maxRows: a.int('MaxRows', 0),
        columns: {
          count: boundedInt(a, 'Columns.Count', 0, 0, MAX_COUNT),
          width: a.float('Columns.Width', 0),
          layout: a.enumOf('Columns.Layout', ['AcrossThenDown', 'DownThenAcross'] as const, 'AcrossThenDown'),
          minRowCount: a.int('Columns.MinRowCount', 0),
        },
        printIfDetailEmpty: a.bool('PrintIfDetailEmpty', false),
        printIfDatasourceEmpty: a.bool('PrintIfDatasourceEmpty', false),
        keepTogether: a.bool('KeepTogether', false),
        keepDetail: a.bool('KeepDetail', false),
        idColumn: a.str('IdColumn'),
        parentIdColumn: a.str('ParentIdColumn'),
        indent: a.float('Indent', 37.8),
        collectChildRows: a.bool('CollectChildRows', false),
        resetPageNumber: a.bool('ResetPageNumber', false),
        header: null,
        footer: null,
        bands: [],
      };
    case 'GroupHeaderBand':
      return {
        type: 'GroupHeaderBand',
        ...common,
        keepWithData: a.bool('KeepWithData', false),
        repeatOnEveryPage: a.bool('RepeatOnEveryPage', false),
        condition: a.str('Condition'),
        sortOrder: a.enumOf('SortOrder', ['None', 'Ascending', 'Descending'] as const, 'Ascending'),
        keepTogether: a.bool('KeepTogether', false),
        resetPageNumber: a.bool('ResetPageNumber', false),
        nestedGroup: null,
        data: null,
        groupFooter: null,
        header: null,
        footer: null,
      };
    default:
      return null;
  }
}

/** Sets a single-band slot; like FastReport, a second band of the same kind replaces the first. */
function replaced(ctx: LoadContext, owner: XmlElement, child: XmlElement, had: unknown): void {
  if (had) ctx.warn(`${describe(owner)} has more than one ${child.name}; ${describe(child)} replaces the earlier one`);
}

function placeInDataBand(band: DataBandModel, el: XmlElement, child: XmlElement, ctx: LoadContext): boolean {
  switch (child.name) {
    case 'DataHeaderBand':
    case 'DataFooterBand': {
      const b = parseBand(child, ctx) as HeaderFooterBandModel;
      const slot = child.name === 'DataHeaderBand' ? 'header' : 'footer';
      replaced(ctx, el, child, band[slot]);
      band[slot] = b;
      return true;
    }
    case 'DataBand':
    case 'GroupHeaderBand':
      band.bands.push(parseBand(child, ctx) as DataBandModel | GroupHeaderBandModel);
      return true;
    case 'Sort':
      band.sort = parseSort(child, ctx);
      return true;
    default:
      return false;
  }
}

function placeInGroup(band: GroupHeaderBandModel, el: XmlElement, child: XmlElement, ctx: LoadContext): boolean {
  switch (child.name) {
    case 'GroupHeaderBand':
      // FastReport: a group holds either a nested group or a data band, never both.
      if (band.data) {
        ctx.warn(`${describe(child)}: ${describe(el)} already has a data band; the nested group is ignored`);
      } else {
        replaced(ctx, el, child, band.nestedGroup);
        band.nestedGroup = parseBand(child, ctx) as GroupHeaderBandModel;
      }
      return true;
    case 'DataBand':
      if (band.data || band.nestedGroup) {
        ctx.warn(`${describe(child)}: ${describe(el)} already has a nested group or data band; this one is ignored`);
      } else {
        band.data = parseBand(child, ctx) as DataBandModel;
      }
      return true;
    case 'GroupFooterBand':
      replaced(ctx, el, child, band.groupFooter);
      band.groupFooter = parseBand(child, ctx) as HeaderFooterBandModel;
      return true;
    case 'DataHeaderBand':
      replaced(ctx, el, child, band.header);
      band.header = parseBand(child, ctx) as HeaderFooterBandModel;
      return true;
    case 'DataFooterBand':
      replaced(ctx, el, child, band.footer);
      band.footer = parseBand(child, ctx) as HeaderFooterBandModel;
      return true;
    default:
      return false;
  }
}

/** A band element and everything nested in it; null (with a warning) if it is no band. */
export function parseBand(el: XmlElement, ctx: LoadContext): BandModel | null {
  const a = new Attrs(el, ctx);
  const band = BAND_ELEMENTS.has(el.name) ? build(el, a) : null;
  if (!band) {
    ctx.warn(`Unknown element ${describe(el)} is ignored`);
    return null;
  }
  for (const child of el.children) {
    if (child.name === 'ChildBand') {
      replaced(ctx, el, child, band.child);
      band.child = parseBand(child, ctx) as ChildBandModel;
    } else if (isReportObjectElement(child.name)) {
      const obj = parseReportObject(child, ctx);
      if (obj) band.objects.push(obj);
    } else if (band.type === 'DataBand' && placeInDataBand(band, el, child, ctx)) {
      // placed
    } else if (band.type === 'GroupHeaderBand' && placeInGroup(band, el, child, ctx)) {
      // placed
    } else if (BAND_ELEMENTS.has(child.name)) {
      ctx.warn(`${describe(child)} cannot be inside ${describe(el)} and is ignored`);
    } else {
      ctx.warn(`Unknown element ${describe(child)} inside ${describe(el)} is ignored`);
    }
  }
  if (band.type === 'GroupHeaderBand' && !band.data && !band.nestedGroup) {
    ctx.warn(`${describe(el)} has no data band`);
  }
  band.raw = a.rest();
  return band;
}
