// MapObject (FastReport.Map): the object, its layers (MapLayer) and the shapes a layer embeds
// (ShapePolygon, ShapePolyLine, ShapePoint with ShapeData blobs and SpatialData). A layer that
// names a shapefile gets its shapes when the template loads (loadMapShapefiles, through the
// caller's resource reader), as FastReport's MapLayer.OnAfterLoad does; so does a
// CsvDataConnection's CsvFile (loadCsvFiles).

import { TemplateError } from '../errors.js';
import { decodeShapeBlob, MAX_MAP_POINTS, parseSpatialData, simplifyParts } from '../map/shapes.js';
import { readShapefile } from '../map/shapefile.js';
import { parseBorder, parseFill } from './appearance.js';
import { readComponent } from './component.js';
import { defaultBorder, padding, solidFill } from './defaults.js';
import { rgba } from './colors.js';
import type { FontSpec } from '../text/font-spec.js';
import type { MapBox, MapColorRangeModel, MapColorScaleModel, MapLayerModel, MapShape } from './model-map.js';
import type { ConnectionModel, MapObjectModel } from './model.js';
import { Attrs, describe, type LoadContext } from './values.js';
import type { XmlElement } from './xml.js';

/** Reads a file a template names relative to its own folder (a map layer's shapefile): the path
 *  as the template writes it with '/' for '\'. undefined when there is no such file. The caller
 *  decides which folders may be read. */
export type ResourceReader = (relativePath: string) => Buffer | Uint8Array | undefined;

const GAINSBORO = rgba(220, 220, 220);
const WHITE = rgba(255, 255, 255);
const BLACK = rgba(0, 0, 0);
const DARK_GRAY = rgba(169, 169, 169);
const SILVER = rgba(192, 192, 192);
/** DrawUtils.DefaultFont: the map's texts unless the template says otherwise. */
const TAHOMA_8: FontSpec = {
  family: 'Tahoma',
  sizePt: 8,
  bold: false,
  italic: false,
  underline: false,
  strikeout: false,
};
/** The accuracy (degrees) FastReport simplifies a shapefile's shapes with when it loads one. */
const SHAPEFILE_ACCURACY = 0.03;

export function parseMapObject(el: XmlElement, ctx: LoadContext): MapObjectModel {
  const a = new Attrs(el, ctx);
  const hasFill = a.hasGroup('Fill');
  const o: MapObjectModel = {
    type: 'MapObject',
    ...readComponent(a),
    zoom: a.clamped('Zoom', 1, 0.01, 1000),
    offsetX: a.float('OffsetX', 0),
    offsetY: a.float('OffsetY', 0),
    padding: a.padding('Padding', padding(0, 0, 0, 0)),
    mercatorProjection: a.bool('MercatorProjection', true),
    colorScale: parseColorScale(a),
    layers: [],
  };
  // MapObject's constructor fills it Gainsboro.
  if (!hasFill) o.fill = solidFill(GAINSBORO);
  a.markUsed('MinZoom');
  a.markUsed('MaxZoom');
  let points = 0;
  for (const child of el.children) {
    if (child.name !== 'MapLayer') {
      ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
      continue;
    }
    const layer = parseLayer(child, ctx, points);
    points += countPoints(layer.shapes);
    o.layers.push(layer);
  }
  o.raw = a.rest();
  return o;
}

function parseColorScale(a: Attrs): MapColorScaleModel {
  const p = 'ColorScale';
  let border = defaultBorder();
  if (a.hasGroup(`${p}.Border`)) border = parseBorder(a, `${p}.Border`);
  else {
    border.lines = { left: true, top: true, right: true, bottom: true };
    for (const side of [border.leftLine, border.topLine, border.rightLine, border.bottomLine]) side.color = SILVER;
  }
  return {
    visible: a.bool(`${p}.Visible`, true),
    dock: a.enumOf(
      `${p}.Dock`,
      [
        'TopLeft',
        'TopCenter',
        'TopRight',
        'MiddleLeft',
        'MiddleRight',
        'BottomLeft',
        'BottomCenter',
        'BottomRight',
      ] as const,
      'BottomLeft',
    ),
    titleText: a.str(`${p}.TitleText`),
    titleFont: a.font(`${p}.TitleFont`, TAHOMA_8),
    titleColor: a.color(`${p}.TitleColor`, BLACK),
    font: a.font(`${p}.Font`, TAHOMA_8),
    textColor: a.color(`${p}.TextColor`, BLACK),
    borderColor: a.color(`${p}.BorderColor`, DARK_GRAY),
    fill: parseFill(a, `${p}.Fill`, solidFill(WHITE)),
    border,
    format: a.str(`${p}.Format`, '0'),
    hideIfNoData: a.bool(`${p}.HideIfNoData`, true),
    noDataText: a.str(`${p}.NoDataText`, 'No data'),
  };
}

function parseLayer(el: XmlElement, ctx: LoadContext, pointsBefore: number): MapLayerModel {
  const a = new Attrs(el, ctx);
  const s = 'DefaultShapeStyle';
  const layer: MapLayerModel = {
    name: a.str('Name'),
    line: el.line,
    shapefile: a.str('Shapefile'),
    type: a.enumOf('Type', ['Point', 'Line', 'Polygon'] as const, 'Point'),
    spatialSource: a.enumOf('SpatialSource', ['ShpFile', 'ApplicationData'] as const, 'ShpFile'),
    dataSource: a.str('DataSource'),
    filter: a.str('Filter'),
    spatialColumn: a.str('SpatialColumn'),
    spatialValue: a.str('SpatialValue'),
    analyticalValue: a.str('AnalyticalValue'),
    labelColumn: a.str('LabelColumn'),
    labelKind: a.enumOf('LabelKind', ['None', 'Name', 'Value', 'NameAndValue'] as const, 'Name'),
    labelFormat: a.str('LabelFormat'),
    accuracy: a.clamped('Accuracy', 2, 0, 1000),
    labelsVisibleAtZoom: a.float('LabelsVisibleAtZoom', 1),
    function: a.enumOf('Function', ['Sum', 'Min', 'Max', 'Avg', 'Count'] as const, 'Sum'),
    visible: a.bool('Visible', true),
    box: parseBox(a.str('BoxAsString')),
    style: {
      borderColor: a.color(`${s}.BorderColor`, DARK_GRAY),
      borderWidth: a.clamped(`${s}.BorderWidth`, 1, 0, 100),
      borderStyle: a.enumOf(`${s}.BorderStyle`, ['Solid', 'Dash', 'Dot', 'DashDot', 'DashDotDot'] as const, 'Solid'),
      fillColor: a.color(`${s}.FillColor`, WHITE),
      font: a.font(`${s}.Font`, TAHOMA_8),
      textColor: a.color(`${s}.TextColor`, BLACK),
      pointSize: a.clamped(`${s}.PointSize`, 10, 0, 1000),
    },
    palette: a.enumOf(
      'Palette',
      ['None', 'Light', 'Pastel', 'Grayscale', 'Earth', 'Sea', 'BrightPastel'] as const,
      'None',
    ),
    colorRanges: {
      startColor: a.color('ColorRanges.StartColor', rgba(255, 0, 0)),
      middleColor: a.color('ColorRanges.MiddleColor', rgba(255, 255, 0)),
      endColor: a.color('ColorRanges.EndColor', rgba(0, 128, 0)),
      showInColorScale: a.bool('ColorRanges.ShowInColorScale', true),
      ranges: parseRanges(a.str('ColorRanges.RangesAsString'), a),
    },
    shapes: [],
    raw: {},
  };
  let points = pointsBefore;
  for (const child of el.children) {
    const shape = parseShape(child, ctx);
    if (!shape) continue;
    points += countPoints([shape]);
    if (points > MAX_MAP_POINTS)
      throw new TemplateError(`the map's shapes hold more than ${MAX_MAP_POINTS} points`, `${describe(child)}`);
    layer.shapes.push(shape);
  }
  layer.raw = a.rest();
  return layer;
}

/** "minX,minY,maxX,maxY" in invariant numbers; null when absent or unusable. */
function parseBox(text: string): MapBox | null {
  const v = text.split(',').map((t) => Number(t.trim()));
  if (v.length !== 4 || !v.every(Number.isFinite)) return null;
  const [minX, minY, maxX, maxY] = v as [number, number, number, number];
  return { minX, minY, maxX, maxY };
}

/** ColorRanges.RangesAsString: "Color;Start;End" lines (CRLF), NaN where the data decides. */
function parseRanges(text: string, a: Attrs): MapColorRangeModel[] {
  if (text === '') return [];
  const out: MapColorRangeModel[] = [];
  for (const line of text.split(/\r\n|\n/).slice(0, 1000)) {
    const parts = line.split(';');
    if (parts.length !== 3) continue;
    const color = parts[0]?.trim() === 'Transparent' ? null : colorOf(parts[0] as string, a);
    out.push({ color, start: num(parts[1] as string), end: num(parts[2] as string) });
  }
  return out;
}

const num = (t: string): number => (t.trim() === 'NaN' || t.trim() === '' ? Number.NaN : Number(t.trim()));

function colorOf(text: string, a: Attrs): MapColorRangeModel['color'] {
  // Read through a scratch attribute so an unreadable colour warns like any other.
  const scratch = new Attrs({ ...a.el, attrs: { Color: text.trim() } }, a.ctx, a.owner);
  const c = scratch.color('Color', rgba(0, 0, 0, 0));
  return c.a === 0 ? null : c;
}

function parseShape(el: XmlElement, ctx: LoadContext): MapShape | null {
  const kind =
    el.name === 'ShapePolygon'
      ? 'polygon'
      : el.name === 'ShapePolyLine'
        ? 'polyline'
        : el.name === 'ShapePoint'
          ? 'point'
          : null;
  if (!kind) {
    ctx.warn(`${describe(el)} inside a MapLayer is ignored`);
    return null;
  }
  const a = new Attrs(el, ctx);
  const data = parseSpatialData(a.str('SpatialData'));
  if (!a.bool('Visible', true)) return null;
  if (kind === 'point') {
    const part = Float64Array.of(a.float('X', 0), a.float('Y', 0));
    const [x, y] = part as unknown as [number, number];
    a.rest();
    return { kind, parts: [part], box: { minX: x, minY: y, maxX: x, maxY: y }, data };
  }
  const blob = a.str('ShapeData').trim();
  if (blob === '') {
    if (a.has('BlobIndex'))
      ctx.warn(`${describe(el)}: a prepared report's BlobIndex is not read; the shape is not drawn`);
    return null;
  }
  const { parts, box } = decodeShapeBlob(Buffer.from(blob, 'base64'), describe(el));
  return { kind, parts, box, data };
}

const countPoints = (shapes: readonly MapShape[]): number =>
  shapes.reduce((n, s) => n + s.parts.reduce((m, p) => m + p.length / 2, 0), 0);

/** The shapefile path a template names, relative to its folder with '/' separators; undefined
 *  for an absolute path (a template may only name files beside it). */
export function relativeResourcePath(name: string): string | undefined {
  const path = name.trim().replace(/\\/g, '/');
  if (path === '' || path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\0')) return undefined;
  return path;
}

/** Reads the shapefiles the report's map layers name (with their .dbf beside them), once per
 *  file; a file that cannot be found is one warning and the layer has no shapes. */
export function loadMapShapefiles(
  maps: readonly MapObjectModel[],
  read: ResourceReader | undefined,
  ctx: LoadContext,
): void {
  const cache = new Map<string, MapShape[] | null>();
  for (const map of maps) {
    let points = countPoints(map.layers.flatMap((l) => l.shapes));
    for (const layer of map.layers) {
      if (layer.shapefile.trim() === '') continue;
      const path = relativeResourcePath(layer.shapefile);
      let shapes = path === undefined ? null : cache.get(path);
      if (shapes === undefined && path !== undefined) {
        const shp = read?.(path);
        const dbf = shp ? read?.(path.replace(/\.shp$/i, '') + '.dbf') : undefined;
        shapes = shp ? readShapefile(shp, dbf, layer.shapefile, { pointsBefore: points }) : null;
        if (shapes) for (const s of shapes) s.parts = simplifyParts(s.parts, SHAPEFILE_ACCURACY, s.kind === 'polygon');
        cache.set(path, shapes);
        if (!shapes)
          ctx.warn(
            `MapObject "${map.name}": the shapefile "${layer.shapefile}" cannot be found; ` +
              'the map is drawn without its shapes',
          );
      } else if (path === undefined)
        ctx.warn(
          `MapObject "${map.name}": the shapefile "${layer.shapefile}" is not a path relative to the template; ` +
            'it is not read',
        );
      layer.shapes = shapes ?? [];
      points += countPoints(layer.shapes);
    }
  }
}

/** A CsvDataConnection's CsvFile, read for the tables it does not store (as FastReport opens the
 *  connection only for them); a file that cannot be found is a warning and its tables are empty
 *  unless the caller supplies their CSV text. An encrypted connection string is not read. */
export function loadCsvFiles(
  connections: readonly ConnectionModel[],
  read: ResourceReader | undefined,
  ctx: LoadContext,
): void {
  for (const conn of connections) {
    if (conn.type !== 'CsvDataConnection' || conn.connectionString.startsWith('rij')) continue;
    if (conn.dataSources.every((ds) => (ds.raw.StoreData ?? '').toLowerCase() === 'true')) continue;
    const file = /(?:^|;)\s*CsvFile\s*=\s*("?)([^;"]*)\1/i.exec(conn.connectionString)?.[2]?.trim() ?? '';
    if (file === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(file)) continue;
    const path = relativeResourcePath(file);
    const bytes = path === undefined ? undefined : read?.(path);
    if (bytes) conn.fileData = bytes;
    else
      ctx.warn(
        `${conn.name}: the CSV file "${file}" cannot be read beside the template; its tables read the supplied data`,
      );
  }
}
